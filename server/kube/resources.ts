import { objectProblems } from '../../lib/findings/object-shape';
import type {
  ConfigMap,
  DestinationRule,
  EndpointSlice,
  Gateway,
  KubeEvent,
  KubeList,
  KubeObject,
  Namespace,
  Node,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../../lib/kube/types';
import type { IstioConfig } from '../../lib/kube/istio-config';
import { requireName } from '../../lib/kube/names';
import { isKubeError, KubeError } from './errors';
import type { KubeTransport } from './transport';

export interface ResourceType {
  group: string; // '' for core
  version: string;
  plural: string;
  namespaced: boolean;
  /** The kind of its objects, when meshdx checks their shape before use (lib/findings/screen). */
  kind?: string;
}

export const CORE = {
  namespaces: {
    group: '',
    version: 'v1',
    plural: 'namespaces',
    namespaced: false,
    kind: 'Namespace',
  },
  pods: { group: '', version: 'v1', plural: 'pods', namespaced: true, kind: 'Pod' },
  services: { group: '', version: 'v1', plural: 'services', namespaced: true, kind: 'Service' },
  events: { group: '', version: 'v1', plural: 'events', namespaced: true },
  configmaps: { group: '', version: 'v1', plural: 'configmaps', namespaced: true },
  nodes: { group: '', version: 'v1', plural: 'nodes', namespaced: false },
  endpointslices: {
    group: 'discovery.k8s.io',
    version: 'v1',
    plural: 'endpointslices',
    namespaced: true,
  },
} satisfies Record<string, ResourceType>;

export type IstioKind =
  'sidecars' | 'destinationrules' | 'virtualservices' | 'serviceentries' | 'gateways';
export const ISTIO_GROUP = 'networking.istio.io';
const ISTIO_VERSIONS = ['v1', 'v1beta1', 'v1alpha3'];

/** The collection path of a resource, optionally in one namespace (validated). */
export function collectionPath(rt: ResourceType, namespace?: string): string {
  const root = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
  if (namespace !== undefined && rt.namespaced) {
    return `${root}/namespaces/${requireName('namespace', namespace)}/${rt.plural}`;
  }
  return `${root}/${rt.plural}`;
}

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  timeoutMs?: number;
  /** The Accept header (a metadata-only list: METADATA_ONLY_ACCEPT). */
  accept?: string;
}

/**
 * Asks the API server for the objects' metadata only (a PartialObjectMetadataList), plain JSON
 * from a server that does not offer it: for kinds whose bodies are large and never read (CRDs).
 */
export const METADATA_ONLY_ACCEPT =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

export interface Listed<T> {
  /** The objects meshdx can read. */
  items: T[];
  /**
   * Objects of the list whose shape meshdx cannot read (a Pod without spec...), left out of
   * `items` so that one bad object never breaks a view; the Findings report names each one.
   */
  rejected: unknown[];
  resourceVersion: string;
}

/** Splits a list's items into readable objects and malformed ones (by the resource's kind). */
export function screenItems<T>(
  rt: ResourceType,
  raw: unknown[],
): { items: T[]; rejected: unknown[] } {
  if (!rt.kind) return { items: raw as T[], rejected: [] };
  const items: T[] = [];
  const rejected: unknown[] = [];
  for (const item of raw) {
    const obj =
      item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : null;
    if (obj && objectProblems({ ...obj, kind: obj.kind ?? rt.kind }).length === 0)
      items.push(item as T);
    else rejected.push(item);
  }
  return { items, rejected };
}

export async function listResource<T extends KubeObject>(
  t: KubeTransport,
  rt: ResourceType,
  opts: ListOptions = {},
): Promise<Listed<T>> {
  const list = await t.getJson<KubeList<T>>(collectionPath(rt, opts.namespace), {
    query: { labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector },
    timeoutMs: opts.timeoutMs ?? 30_000,
    ...(opts.accept !== undefined ? { accept: opts.accept } : {}),
  });
  if (!list || !Array.isArray(list.items)) {
    throw new KubeError('protocol', `${collectionPath(rt, opts.namespace)} did not return a list`);
  }
  return {
    ...screenItems<T>(rt, list.items),
    resourceVersion: list.metadata?.resourceVersion ?? '',
  };
}

export const listPods = (t: KubeTransport, o?: ListOptions) => listResource<Pod>(t, CORE.pods, o);
export const listServices = (t: KubeTransport, o?: ListOptions) =>
  listResource<Service>(t, CORE.services, o);
export const listEndpointSlices = (t: KubeTransport, o?: ListOptions) =>
  listResource<EndpointSlice>(t, CORE.endpointslices, o);
export const listEvents = (t: KubeTransport, o?: ListOptions) =>
  listResource<KubeEvent>(t, CORE.events, o);
export const listNodes = (t: KubeTransport, o?: Omit<ListOptions, 'namespace'>) =>
  listResource<Node>(t, CORE.nodes, o);
export const listNamespaces = (t: KubeTransport, o?: Omit<ListOptions, 'namespace'>) =>
  listResource<Namespace>(t, CORE.namespaces, o);

/** The `istio` ConfigMap in istio-system (mesh config), or null when Istio's config is elsewhere. */
export async function getIstioConfigMap(
  t: KubeTransport,
  namespace = 'istio-system',
  name = 'istio',
): Promise<ConfigMap | null> {
  try {
    return await t.getJson<ConfigMap>(
      `${collectionPath(CORE.configmaps, namespace)}/${requireName('resource', name)}`,
      {
        timeoutMs: 10_000,
      },
    );
  } catch (e) {
    if (isKubeError(e) && e.status === 404) return null;
    throw e;
  }
}

interface ApiGroup {
  name: string;
  versions?: { version: string }[];
  preferredVersion?: { version: string };
}

/**
 * Which version of networking.istio.io the server serves (v1 on Istio 1.22+, v1beta1 or v1alpha3
 * before), or null when Istio's CRDs are not installed.
 */
export async function servedIstioVersion(t: KubeTransport): Promise<string | null> {
  const groups = await t.getJson<{ groups?: ApiGroup[] }>('/apis', { timeoutMs: 10_000 });
  const g = groups.groups?.find((x) => x.name === ISTIO_GROUP);
  if (!g) return null;
  const served = new Set((g.versions ?? []).map((v) => v.version));
  return ISTIO_VERSIONS.find((v) => served.has(v)) ?? g.preferredVersion?.version ?? null;
}

export function istioType(kind: IstioKind, version: string): ResourceType {
  return { group: ISTIO_GROUP, version, plural: kind, namespaced: true };
}

/** The Istio networking resources of the cluster, and the API version they were read at. */
export interface ListedIstioConfig extends Pick<
  IstioConfig,
  'sidecars' | 'destinationRules' | 'virtualServices' | 'serviceEntries'
> {
  /** The served networking.istio.io version; null when Istio's CRDs are not installed. */
  version: string | null;
}

/** All Istio networking resources meshdx reads, in one parallel fan-out. */
export async function listIstioConfig(
  t: KubeTransport,
  opts: ListOptions = {},
): Promise<ListedIstioConfig> {
  const listAt = (version: string) =>
    Promise.all([
      listResource<Sidecar>(t, istioType('sidecars', version), opts),
      listResource<DestinationRule>(t, istioType('destinationrules', version), opts),
      listResource<VirtualService>(t, istioType('virtualservices', version), opts),
      listResource<ServiceEntry>(t, istioType('serviceentries', version), opts),
    ]);
  // the lists at the newest version go out with the discovery request, not after it: on a slow
  // API server one round trip instead of two; used only when discovery says that version is served
  const newest = ISTIO_VERSIONS[0] as string;
  const guessed = listAt(newest);
  guessed.catch(() => undefined);
  const version = await servedIstioVersion(t);
  if (!version) {
    return {
      version: null,
      sidecars: [],
      destinationRules: [],
      virtualServices: [],
      serviceEntries: [],
    };
  }
  const [sc, dr, vs, se] = await (version === newest ? guessed : listAt(version));
  return {
    version,
    sidecars: sc.items,
    destinationRules: dr.items,
    virtualServices: vs.items,
    serviceEntries: se.items,
  };
}

/**
 * A kind that may not be installed (Gateway API, Istio security CRDs): the first served version
 * of `versions`, best-effort. A 404 means "not installed": no items and a note, never a failure.
 */
export async function listOptional<T extends KubeObject>(
  t: KubeTransport,
  group: string,
  versions: readonly string[],
  plural: string,
  opts: ListOptions = {},
): Promise<{ items: T[]; note: string | null }> {
  let last: unknown = null;
  for (const version of versions) {
    try {
      const r = await listResource<T>(t, { group, version, plural, namespaced: true }, opts);
      return { items: r.items, note: null };
    } catch (e) {
      last = e;
      if (!(isKubeError(e) && e.status === 404)) break;
    }
  }
  const why =
    isKubeError(last) && last.status === 404
      ? 'not served (not installed)'
      : last instanceof Error
        ? last.message
        : String(last);
  return { items: [], note: `${plural}.${group}: ${why}` };
}

export const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';
export const GATEWAY_API_VERSIONS = ['v1', 'v1beta1'] as const;

/** Gateways (waypoints are those of class istio-waypoint), best-effort. */
export const listGateways = (t: KubeTransport, o?: ListOptions) =>
  listOptional<Gateway>(t, GATEWAY_API_GROUP, GATEWAY_API_VERSIONS, 'gateways', o);

/**
 * Every Gateway a VirtualService may name (spec.gateways): Istio's (networking.istio.io, at the
 * served version) and Gateway API's, each with its apiVersion, so that a check tells them apart.
 * A kind that is not installed has none; `unknown` says why the Gateways could not all be read
 * (RBAC, a failing API server): then no one can say a gateway is missing. `istioVersion`: the
 * served networking.istio.io version as listIstioConfig found it (null: not installed), so that
 * the API server is asked once.
 */
export async function listGatewaysForRoutes(
  t: KubeTransport,
  istioVersion: Promise<string | null>,
): Promise<{ items: unknown[]; unknown: string | null }> {
  const failed = (e: unknown) => (e instanceof Error ? e.message : String(e));
  const [istio, api] = await Promise.all([
    istioVersion
      .then(async (version) => {
        if (version === null) return { items: [] as unknown[], unknown: null };
        const l = await listResource<KubeObject>(t, istioType('gateways', version));
        const apiVersion = `${ISTIO_GROUP}/${version}`;
        return { items: l.items.map((g) => ({ apiVersion, ...g })), unknown: null };
      })
      .catch((e: unknown) => ({ items: [] as unknown[], unknown: `Istio Gateways: ${failed(e)}` })),
    listGateways(t).then((l) => {
      const notInstalled = l.note?.endsWith('not served (not installed)') ?? false;
      return {
        items: l.items.map((g) => ({ apiVersion: `${GATEWAY_API_GROUP}/v1`, ...g })) as unknown[],
        unknown: l.note !== null && !notInstalled ? l.note : null,
      };
    }),
  ]);
  return {
    items: [...istio.items, ...api.items],
    unknown: [istio.unknown, api.unknown].filter((x) => x !== null).join('; ') || null,
  };
}
