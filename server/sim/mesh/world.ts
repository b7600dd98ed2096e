/**
 * Typed reads of the simulated world for the mesh emulator: the objects by kind, the mesh config
 * from the `istio` ConfigMap, and facts about a pod's proxy (present, gateway, version, ready).
 */
import { hasPodSpec } from '../store/podshape';
import { parse as parseYaml } from 'yaml';
import type {
  ConfigMap,
  Container,
  ContainerStatus,
  DestinationRule,
  EndpointSlice,
  KubeObject,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../../../lib/kube/types';
import type { IstioConfig } from '../../../lib/kube/istio-config';
import { simEnvoyOf } from './istio-model/proxy-kind';
import type { MeshWorld } from './types';

/** The Istio version of a proxy whose image carries no version tag. */
export const DEFAULT_ISTIO_VERSION = '1.24.2';

/** The istio-proxy container of an Envoy, classic (containers) or native sidecar (initContainers). */
export function proxyContainer(pod: Pod): { container: Container; native: boolean } | undefined {
  const p = simEnvoyOf(pod);
  return p ? { container: p.container, native: p.native } : undefined;
}

export interface MeshView extends Pick<
  IstioConfig,
  'services' | 'sidecars' | 'destinationRules' | 'serviceEntries' | 'virtualServices'
> {
  pods: readonly Pod[];
  endpointSlices: readonly EndpointSlice[];
  configMaps: readonly ConfigMap[];
}

/**
 * A list's derived values, kept while the list is the same array: the store hands out one array
 * per kind until that kind changes (a world whose lists are changed in place must hand out copies).
 * Without this every proxy request walked all 50,000 pods of the scale scenario twice.
 */
const specPods = new WeakMap<readonly KubeObject[], readonly Pod[]>();
const listKeys = new WeakMap<readonly KubeObject[], string>();

function podsWithSpec(list: readonly KubeObject[]): readonly Pod[] {
  let pods = specPods.get(list);
  if (pods === undefined) {
    pods = (list as readonly Pod[]).filter(hasPodSpec);
    specPods.set(list, pods);
  }
  return pods;
}

export function viewOf(world: MeshWorld): MeshView {
  return {
    pods: podsWithSpec(world.list('pods')),
    services: world.list('services') as readonly Service[],
    endpointSlices: world.list('endpointslices') as readonly EndpointSlice[],
    sidecars: world.list('sidecars') as readonly Sidecar[],
    destinationRules: world.list('destinationrules') as readonly DestinationRule[],
    serviceEntries: world.list('serviceentries') as readonly ServiceEntry[],
    virtualServices: world.list('virtualservices') as readonly VirtualService[],
    configMaps: world.list('configmaps') as readonly ConfigMap[],
  };
}

/** The version of the config a proxy's xDS follows: its Services, Sidecars, DestinationRules and ServiceEntries. */
export function configVersionOf(view: MeshView): string {
  return versionKey([view.services, view.sidecars, view.destinationRules, view.serviceEntries]);
}

/** Cheap change detector for a set of lists: per list, its length and highest resourceVersion. */
export function versionKey(lists: readonly (readonly KubeObject[])[]): string {
  return lists
    .map((list) => {
      const kept = listKeys.get(list);
      if (kept !== undefined) return kept;
      let max = 0;
      for (const o of list) {
        const rv = Number(o.metadata.resourceVersion ?? 0);
        if (rv > max) max = rv;
      }
      const key = `${list.length}:${max}`;
      listKeys.set(list, key);
      return key;
    })
    .join('/');
}

export interface MeshConfig {
  rootNamespace: string;
  /** Namespace that holds the `istio` ConfigMap and istiod. */
  istioNamespace: string;
  outboundTrafficPolicy: string;
  /** defaultServiceExportTo, defaultVirtualServiceExportTo, defaultDestinationRuleExportTo. */
  defaultServiceExportTo: string[];
  defaultVirtualServiceExportTo: string[];
  defaultDestinationRuleExportTo: string[];
}

/** Mesh config from the `istio` ConfigMap (key `mesh`, YAML); defaults when absent or broken. */
export function meshConfig(configMaps: readonly ConfigMap[]): MeshConfig {
  const cm = configMaps.find(
    (c) => c.metadata.name === 'istio' && (c.metadata.namespace ?? '') === 'istio-system',
  );
  const defaults: MeshConfig = {
    rootNamespace: 'istio-system',
    istioNamespace: 'istio-system',
    outboundTrafficPolicy: 'ALLOW_ANY',
    defaultServiceExportTo: ['*'],
    defaultVirtualServiceExportTo: ['*'],
    defaultDestinationRuleExportTo: [],
  };
  const text = cm?.data?.mesh;
  if (!cm || !text) return defaults;
  const cached = meshConfigMemo.get(cm);
  if (cached && cached.text === text) return cached.config;
  const config = parseMeshConfig(text, defaults);
  meshConfigMemo.set(cm, { text, config });
  return config;
}

const meshConfigMemo = new WeakMap<ConfigMap, { text: string; config: MeshConfig }>();

function parseMeshConfig(text: string, defaults: MeshConfig): MeshConfig {
  try {
    const parsed: unknown = parseYaml(text);
    if (!parsed || typeof parsed !== 'object') return defaults;
    const m = parsed as Record<string, unknown>;
    const policy = m.outboundTrafficPolicy as { mode?: unknown } | undefined;
    return {
      ...defaults,
      rootNamespace: typeof m.rootNamespace === 'string' ? m.rootNamespace : defaults.rootNamespace,
      outboundTrafficPolicy:
        typeof policy?.mode === 'string' ? policy.mode : defaults.outboundTrafficPolicy,
      defaultServiceExportTo: exportList(m.defaultServiceExportTo, defaults.defaultServiceExportTo),
      defaultVirtualServiceExportTo: exportList(
        m.defaultVirtualServiceExportTo,
        defaults.defaultVirtualServiceExportTo,
      ),
      defaultDestinationRuleExportTo: exportList(
        m.defaultDestinationRuleExportTo,
        defaults.defaultDestinationRuleExportTo,
      ),
    };
  } catch {
    return defaults;
  }
}

/** A MeshConfig default exportTo: istiod honours only `.` and `*` there. */
function exportList(v: unknown, fallback: string[]): string[] {
  if (!Array.isArray(v)) return fallback;
  const kept = v.filter((x): x is string => x === '.' || x === '*');
  return kept.length > 0 ? kept : fallback;
}

export function podNamespace(pod: Pod): string {
  return pod.metadata.namespace ?? 'default';
}

export function podKey(pod: Pod): string {
  return `${pod.metadata.name}.${podNamespace(pod)}`;
}

export function podIp(pod: Pod): string | undefined {
  return pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip;
}

export function hasProxy(pod: Pod): boolean {
  return proxyContainer(pod) !== undefined;
}

/** Gateways run `pilot-agent proxy router`. */
export function isGateway(pod: Pod): boolean {
  return simEnvoyOf(pod)?.type === 'router';
}

export function proxyStatus(pod: Pod): ContainerStatus | undefined {
  return simEnvoyOf(pod)?.status;
}

/** The proxy answers at all: its container is running. */
export function proxyRunning(pod: Pod): boolean {
  return proxyStatus(pod)?.state?.running !== undefined;
}

/** The proxy has its config: container ready. */
export function proxyReady(pod: Pod): boolean {
  return proxyStatus(pod)?.ready === true;
}

export function proxyStartedAt(pod: Pod): Date | undefined {
  const t = proxyStatus(pod)?.state?.running?.startedAt;
  const ms = t ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** Istio version from the proxy image tag (`.../proxyv2:1.22.3`), else the default. */
export function proxyVersion(pod: Pod): string {
  const image = proxyContainer(pod)?.container.image ?? '';
  const m = /:(\d+\.\d+(?:\.\d+)?)(?:[-@].*)?$/.exec(image);
  return m?.[1] ?? DEFAULT_ISTIO_VERSION;
}

/** Small deterministic hash (FNV-1a) for stable simulated numbers. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
