import type { Inventory, NamespaceRow, PodRow } from '../api/inventory';
import {
  namespaceDataplane,
  podDataplane,
  USE_WAYPOINT_LABEL,
  waypointOf,
} from '../dataplane/mode';
import type { Container, ContainerStatus, Namespace, Pod } from '../kube/types';
import type { IstioConfig } from '../kube/istio-config';
import { ambientSummary } from './ambient';
import { DEFAULT_ROOT_NAMESPACE } from '../scoping/visibility';
import { listOf, sidecarScopes } from '../dataplane/proxy-container';
import { proxyOf } from './proxy';
import { workloadOf } from '../refs/workload-ref';

/**
 * The objects the inventory lists, and how many of the other kinds there are. Gateways:
 * gateway.networking.k8s.io Gateways (waypoints among them), when the API serves them.
 */
export interface InventoryInput
  extends
    Pick<IstioConfig, 'namespaces' | 'services' | 'sidecars'>,
    Partial<Pick<IstioConfig, 'gateways'>> {
  pods: Pod[];
  destinationRules: number;
  virtualServices: number;
  serviceEntries: number;
  /** Why the Gateways could not be read, when they could not. */
  gatewaysNote?: string | null;
  namespace?: string | null;
  /** Istio's root namespace; default istio-system. */
  rootNamespace?: string;
  now: Date;
}

function containerState(s: ContainerStatus | undefined): PodRow['containers'][number]['state'] {
  if (s?.state?.running) return 'running';
  if (s?.state?.waiting) return 'waiting';
  if (s?.state?.terminated) return 'terminated';
  return 'unknown';
}

export function podRow(pod: Pod, ns?: Namespace): PodRow {
  const proxy = proxyOf(pod);
  const wl = workloadOf(pod);
  const statuses = new Map<string, { s: ContainerStatus; init: boolean }>();
  for (const s of pod.status?.initContainerStatuses ?? [])
    statuses.set(`i/${s.name}`, { s, init: true });
  for (const s of pod.status?.containerStatuses ?? [])
    statuses.set(`c/${s.name}`, { s, init: false });
  // a malformed pod (no spec, containers not a list) is a row with no containers, never a
  // crash of the whole inventory
  const spec = pod.spec as Partial<Pod['spec']> | undefined;
  const containers = [
    ...listOf<Container>(spec?.initContainers).map((c) => ({ c, init: true })),
    ...listOf<Container>(spec?.containers).map((c) => ({ c, init: false })),
  ].map(({ c, init }) => {
    const s = statuses.get(`${init ? 'i' : 'c'}/${c.name}`)?.s;
    return {
      name: c.name,
      init,
      ready: s?.ready ?? false,
      restarts: s?.restartCount ?? 0,
      state: containerState(s),
      startedAt: s?.state?.running?.startedAt ?? s?.state?.terminated?.startedAt ?? null,
      reason: s?.state?.waiting?.reason ?? s?.state?.terminated?.reason ?? null,
    };
  });
  const ready =
    pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  return {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name,
    uid: pod.metadata.uid ?? '',
    phase: pod.status?.phase ?? 'Unknown',
    ready,
    deleting: Boolean(pod.metadata.deletionTimestamp),
    podIP: pod.status?.podIP ?? null,
    node: spec?.nodeName ?? null,
    workload: wl.name,
    workloadKind: wl.kind,
    createdAt: pod.metadata.creationTimestamp ?? null,
    proxy: {
      placement: proxy.placement,
      ready: proxy.status?.ready ?? false,
      restarts: proxy.status?.restartCount ?? 0,
      image: proxy.container?.image ?? null,
    },
    containers,
    dataplane: (({ mode, why, waypoint }) => ({ mode, why, waypoint }))(podDataplane(pod, ns)),
  };
}

function injectionOf(ns: Namespace): Pick<NamespaceRow, 'injection' | 'revision'> {
  const labels = ns.metadata.labels ?? {};
  const inj = labels['istio-injection'];
  const rev = labels['istio.io/rev'] ?? null;
  if (inj === 'enabled') return { injection: 'enabled', revision: rev };
  if (inj === 'disabled') return { injection: 'disabled', revision: rev };
  if (rev) return { injection: 'revision', revision: rev };
  return { injection: 'unset', revision: null };
}

/**
 * The inventory with every pod's row: the rows feed analyses on the server (findings); the API
 * sends the inventory without them (a screen asks `GET /api/pods` for the pods it shows).
 */
export type InventoryWithPods = Inventory & { pods: PodRow[] };

/** What the cluster has, per namespace and per pod: the common ground of every view. */
export function buildInventory(input: InventoryInput): InventoryWithPods {
  const nsByName = new Map(input.namespaces.map((n) => [n.metadata.name, n]));
  const rows = input.pods
    .map((p) => podRow(p, nsByName.get(p.metadata.namespace ?? '')))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const byNs = new Map<string, NamespaceRow>();
  const row = (name: string): NamespaceRow => {
    let r = byNs.get(name);
    if (!r) {
      r = {
        name,
        injection: 'unset',
        revision: null,
        pods: 0,
        meshedPods: 0,
        sidecarPods: 0,
        services: 0,
        sidecars: 0,
        defaultSidecar: false,
        dataplane: 'none',
        ambientPods: 0,
        waypoint: null,
      };
      byNs.set(name, r);
    }
    return r;
  };
  for (const ns of input.namespaces) {
    const labels = ns.metadata.labels ?? {};
    Object.assign(row(ns.metadata.name), injectionOf(ns), {
      dataplane: namespaceDataplane(ns),
      waypoint: labels[USE_WAYPOINT_LABEL] ? waypointOf({}, labels, ns.metadata.name) : null,
    });
  }
  for (const p of rows) {
    const r = row(p.namespace);
    r.pods++;
    if (p.proxy.placement !== 'none') r.meshedPods++;
    if (sidecarScopes(p.proxy.placement)) r.sidecarPods++;
    if (p.dataplane.mode === 'ambient') r.ambientPods++;
  }
  for (const s of input.services) row(s.metadata.namespace ?? '').services++;
  for (const sc of input.sidecars) {
    const r = row(sc.metadata.namespace ?? '');
    r.sidecars++;
    if (!sc.spec?.workloadSelector) r.defaultSidecar = true;
  }
  const namespaces = [...byNs.values()].sort((a, b) => a.name.localeCompare(b.name));
  const only = input.namespace ?? null;
  const ambient = ambientSummary(
    input.pods,
    rows,
    input.gateways ?? [],
    input.gatewaysNote ?? null,
  );
  return {
    generatedAt: input.now.toISOString(),
    namespace: only,
    rootNamespace: input.rootNamespace ?? DEFAULT_ROOT_NAMESPACE,
    namespaces,
    pods: only ? rows.filter((p) => p.namespace === only) : rows,
    totals: {
      namespaces: namespaces.length,
      pods: rows.length,
      meshedPods: rows.filter((p) => p.proxy.placement !== 'none').length,
      services: input.services.length,
      sidecars: input.sidecars.length,
      destinationRules: input.destinationRules,
      virtualServices: input.virtualServices,
      serviceEntries: input.serviceEntries,
      ambientNamespaces: namespaces.filter((n) => n.dataplane === 'ambient').length,
      ambientPods: rows.filter((p) => p.dataplane.mode === 'ambient').length,
      ztunnels: ambient.ztunnels.length,
      waypoints: ambient.waypoints.length,
    },
    ambient,
  };
}
