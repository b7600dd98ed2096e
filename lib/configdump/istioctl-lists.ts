/**
 * What `istioctl proxy-config cluster|endpoint|listener|route -o json|yaml` prints: a LIST of
 * the Envoy objects of that type, not a config dump (istio/istio istioctl/pkg/writer/envoy/
 * configdump/{cluster,endpoint,listener,route}.go and writer/envoy/clusters/clusters.go, each
 * a `proto.MessageSlice` marshalled with protojson: camelCase keys, default values left out;
 * `-o yaml` is the same list through JSONToYAML):
 * - cluster: `envoy.config.cluster.v3.Cluster` entries (static and dynamic together);
 * - endpoint: `admin.v3.ClusterStatus` entries from /clusters (name, hostStatuses), or with
 *   `--file DUMP` the dump's `ClusterLoadAssignment`s (clusterName, endpoints);
 * - listener: `Listener` entries (name, address, filterChains...);
 * - route: `RouteConfiguration` entries (name, virtualHosts...).
 * The kind is told by the keys each entry has; an entry of another shape is named, not dropped.
 */
import { clusterRow, compareClusterRows } from './clusters';
import { envoyAddress } from './address';
import { arrayField, field, hasField, isObject } from './fields';
import { tabulate } from './table';
import type { ClusterRow, DumpProblem } from './types';

export type IstioctlListKind = 'cluster' | 'endpoint' | 'endpoint-file' | 'listener' | 'route';

/** A listener as the list shows it: its name, where it listens, how many filter chains. */
export interface ListenerListRow {
  name: string;
  /** ip:port, a pipe's path, envoy://LISTENER/ID, or '' for an internal listener. */
  address: string;
  filterChains: number;
}

/** A route configuration: its name, virtual hosts, and the routes in them. */
export interface RouteListRow {
  name: string;
  virtualHosts: number;
  domains: number;
  routes: number;
}

export type IstioctlList =
  | { kind: 'cluster'; rows: ClusterRow[]; errors: DumpProblem[] }
  | { kind: 'endpoint' | 'endpoint-file'; entries: unknown[]; errors: DumpProblem[] }
  | { kind: 'listener'; rows: ListenerListRow[]; errors: DumpProblem[] }
  | { kind: 'route'; rows: RouteListRow[]; errors: DumpProblem[] };

const CLUSTER_KEYS = [
  'connect_timeout',
  'type',
  'cluster_type',
  'eds_cluster_config',
  'lb_policy',
  'load_assignment',
  'circuit_breakers',
];

/** Which kind of Envoy object one entry of a list is, from its keys; null when none. */
function entryKind(v: unknown): IstioctlListKind | null {
  if (!isObject(v)) return null;
  if (hasField(v, 'host_statuses')) return 'endpoint';
  if (typeof field(v, 'cluster_name') === 'string' || hasField(v, 'endpoints'))
    return hasField(v, 'connect_timeout') ? 'cluster' : 'endpoint-file';
  if (hasField(v, 'virtual_hosts') || hasField(v, 'validate_clusters')) return 'route';
  if (hasField(v, 'filter_chains') || hasField(v, 'listener_filters') || hasField(v, 'address'))
    return hasField(v, 'connect_timeout') ? 'cluster' : 'listener';
  if (typeof field(v, 'name') === 'string' && CLUSTER_KEYS.some((k) => hasField(v, k)))
    return 'cluster';
  return null;
}

/** The command that printed each kind, as a user would type it. */
export const ISTIOCTL_LIST_COMMAND: Record<IstioctlListKind, string> = {
  cluster: 'istioctl proxy-config cluster -o json|yaml',
  endpoint: 'istioctl proxy-config endpoint -o json|yaml',
  'endpoint-file': 'istioctl proxy-config endpoint --file DUMP -o json|yaml',
  listener: 'istioctl proxy-config listener -o json|yaml',
  route: 'istioctl proxy-config route -o json|yaml',
};

/** The kind most entries of a list are (at least half of them), or null. */
export function istioctlListKind(value: unknown): IstioctlListKind | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const counts = new Map<IstioctlListKind, number>();
  for (const v of value) {
    const k = entryKind(v);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  return best && best[1] * 2 >= value.length ? best[0] : null;
}

function bad(i: number, why: string): DumpProblem {
  const path = `[${i}]`;
  return { line: 0, reason: 'bad-entry', message: `${path} ${why}`, path };
}

/** Reads a parsed list printed by `istioctl proxy-config KIND -o json|yaml`; null if it is none. */
export function readIstioctlList(value: unknown): IstioctlList | null {
  const kind = istioctlListKind(value);
  if (!kind || !Array.isArray(value)) return null;
  const errors: DumpProblem[] = [];
  const mine: unknown[] = [];
  value.forEach((v, i) => {
    const k = entryKind(v);
    if (k === kind) mine.push(v);
    else
      errors.push(
        bad(
          i,
          `is not ${kind === 'endpoint-file' ? 'a load assignment' : `a ${kind}`} like the others${k ? ` (it looks like a ${k})` : ''}`,
        ),
      );
  });
  if (kind === 'endpoint' || kind === 'endpoint-file') return { kind, entries: mine, errors };
  if (kind === 'cluster') {
    const rows: ClusterRow[] = [];
    mine.forEach((c, i) => {
      const row = clusterRow(c, 'unlisted');
      if (row) rows.push(row);
      else errors.push(bad(i, 'is a cluster without a name'));
    });
    return { kind, rows: rows.sort(compareClusterRows), errors };
  }
  if (kind === 'listener')
    return {
      kind,
      rows: mine.map((l) => {
        const a = envoyAddress(field(l, 'address'));
        const address =
          a === null
            ? ''
            : a.kind === 'socket'
              ? `${a.ip.includes(':') ? `[${a.ip}]` : a.ip}:${a.port ?? 0}`
              : a.kind === 'pipe'
                ? a.path
                : `envoy://${a.listener}/${a.endpointId}`;
        const name = field(l, 'name');
        return {
          name: typeof name === 'string' ? name : '',
          address,
          filterChains:
            (arrayField(l, 'filter_chains') ?? []).length +
            (hasField(l, 'default_filter_chain') ? 1 : 0),
        };
      }),
      errors,
    };
  return {
    kind,
    rows: mine.map((r) => {
      const vhosts = arrayField(r, 'virtual_hosts') ?? [];
      const name = field(r, 'name');
      return {
        name: typeof name === 'string' ? name : '',
        virtualHosts: vhosts.length,
        domains: vhosts.reduce<number>((n, v) => n + (arrayField(v, 'domains') ?? []).length, 0),
        routes: vhosts.reduce<number>((n, v) => n + (arrayField(v, 'routes') ?? []).length, 0),
      };
    }),
    errors,
  };
}

/** meshdx's table of a listener list (istioctl's own needs the filter chains decoded). */
export function formatListenerListTable(rows: readonly ListenerListRow[]): string {
  return tabulate([
    ['NAME', 'ADDRESS', 'FILTER CHAINS'],
    ...rows.map((r) => [r.name, r.address || '-', String(r.filterChains)]),
  ]);
}

/** meshdx's table of a route configuration list: what each holds. */
export function formatRouteListTable(rows: readonly RouteListRow[]): string {
  return tabulate([
    ['NAME', 'VIRTUAL HOSTS', 'DOMAINS', 'ROUTES'],
    ...rows.map((r) => [r.name, String(r.virtualHosts), String(r.domains), String(r.routes)]),
  ]);
}
