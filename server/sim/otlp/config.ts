/**
 * What istiod would give a sidecar's Envoy for OpenTelemetry access logging, read from the
 * simulated cluster: the MeshConfig's `extensionProviders[].envoyOtelAls` and the Telemetry
 * resources that enable one for a pod (root namespace without selector, the pod's namespace,
 * or a selector matching its labels; the narrowest wins, as Istio merges them), with the CEL
 * filter, and where the provider's service sends (its EndpointSlice endpoints).
 */
import { parse as parseYaml } from 'yaml';
import type { ConfigMap, EndpointSlice, KubeObject, Service } from '../../../lib/kube/types';
import type { SimStore } from '../world/types';
import { parseFilter, type CelFilter } from './cel';

export interface OtelProvider {
  name: string;
  /** `[ns/]host` as the MeshConfig writes it. */
  service: string;
  port: number;
  logName: string;
  /** `logFormat.labels`: attribute name to Envoy format string. */
  labels: Record<string, string>;
  /** `logFormat.text`, when set. */
  text: string | null;
}

export interface PodAccessLogging {
  provider: OtelProvider;
  filter: CelFilter;
}

interface Telemetry extends KubeObject {
  spec?: {
    selector?: { matchLabels?: Record<string, string> };
    accessLogging?: {
      providers?: { name?: string }[];
      disabled?: boolean;
      filter?: { expression?: string };
    }[];
  };
}

export function otelProviders(store: SimStore, istioNamespace = 'istio-system'): OtelProvider[] {
  const cm = store.get<ConfigMap>('configmaps', istioNamespace, 'istio');
  const text = cm?.data?.mesh;
  if (!text) return [];
  let mesh: unknown;
  try {
    mesh = parseYaml(text);
  } catch {
    return [];
  }
  const list = (mesh as { extensionProviders?: unknown } | null)?.extensionProviders;
  if (!Array.isArray(list)) return [];
  const out: OtelProvider[] = [];
  for (const p of list as Record<string, unknown>[]) {
    const als = p?.envoyOtelAls as Record<string, unknown> | undefined;
    if (!als || typeof p.name !== 'string' || typeof als.service !== 'string') continue;
    const port = Number(als.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) continue;
    const fmt = (als.logFormat ?? {}) as { labels?: Record<string, unknown>; text?: unknown };
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(fmt.labels ?? {})) if (typeof v === 'string') labels[k] = v;
    out.push({
      name: p.name,
      service: als.service,
      port,
      logName:
        typeof als.logName === 'string' && als.logName ? als.logName : 'otel_envoy_accesslog',
      labels,
      text: typeof fmt.text === 'string' && fmt.text ? fmt.text : null,
    });
  }
  return out;
}

function matches(
  selector: Record<string, string> | undefined,
  labels: Record<string, string>,
): boolean {
  return Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);
}

/**
 * The OpenTelemetry access logging a pod's proxy has: for each level (root namespace, the pod's
 * namespace, a workload selector) the most specific Telemetry with accessLogging replaces the
 * broader one, as Istio's Telemetry API does.
 */
export function podAccessLogging(
  store: SimStore,
  pod: { namespace: string; labels: Record<string, string> },
  providers: readonly OtelProvider[],
  rootNamespace = 'istio-system',
): PodAccessLogging[] {
  const all = store
    .list<Telemetry>('telemetries')
    .filter((t) => (t.spec?.accessLogging ?? []).length > 0);
  const nsOf = (t: Telemetry) => t.metadata.namespace ?? 'default';
  const pick =
    all.find(
      (t) =>
        nsOf(t) === pod.namespace &&
        t.spec?.selector &&
        matches(t.spec.selector.matchLabels, pod.labels),
    ) ??
    all.find((t) => nsOf(t) === pod.namespace && !t.spec?.selector) ??
    all.find((t) => nsOf(t) === rootNamespace && !t.spec?.selector);
  if (!pick) return [];
  const out: PodAccessLogging[] = [];
  for (const al of pick.spec?.accessLogging ?? []) {
    if (al.disabled) continue;
    const filter = parseFilter(al.filter?.expression ?? '');
    if (!filter) continue;
    for (const ref of al.providers ?? []) {
      const provider = providers.find((p) => p.name === ref.name);
      if (provider) out.push({ provider, filter });
    }
  }
  return out;
}

/**
 * Where Envoy's `outbound|PORT||HOST` cluster sends: the ready endpoints of the provider's
 * service, on the target port of its service port. Null when the service is not known.
 */
export function providerEndpoint(
  store: SimStore,
  provider: OtelProvider,
): { host: string; port: number } | null {
  const [nsPart, hostPart] = provider.service.includes('/')
    ? provider.service.split('/', 2)
    : [null, provider.service];
  const labels = (hostPart ?? '').split('.');
  const name = labels[0];
  const namespace = nsPart ?? labels[1];
  if (!name || !namespace) return null;
  const svc = store.get<Service>('services', namespace, name);
  const sp = svc?.spec?.ports?.find((p) => p.port === provider.port);
  if (!svc || !sp) return null;
  for (const slice of store.list<EndpointSlice>('endpointslices')) {
    if ((slice.metadata.namespace ?? 'default') !== namespace) continue;
    if (slice.metadata.labels?.['kubernetes.io/service-name'] !== name) continue;
    const port = (slice.ports ?? []).find((p) => (sp.name ? p.name === sp.name : true))?.port;
    const ep = (slice.endpoints ?? []).find(
      (e) => e.conditions?.ready !== false && e.addresses.length > 0,
    );
    if (port && ep?.addresses[0]) return { host: ep.addresses[0], port };
  }
  return null;
}
