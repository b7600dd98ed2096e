import { normalizeIp } from '../accesslog/address';
import { parseClusterName } from '../refs/cluster-name';
import type { EndpointSlice } from '../kube/types';
import { parseServiceFqdn } from '../refs/service-host';
import { asJsonObject } from '../json-object';

/** One upstream host in Envoy's /clusters?format=json. */
export interface ClusterHost {
  cluster: string;
  ip: string;
  port: number | null;
  /** FAILED_OUTLIER_CHECK when outlier detection ejected it, else its EDS health. */
  health: string | null;
  /** health_status.eds_health_status as Envoy wrote it (HEALTHY, UNHEALTHY, DRAINING...). */
  eds: string | null;
  failedOutlierCheck: boolean;
}

/** A host Envoy reaches over a Unix socket (a pipe address): no IP to compare. */
export interface PipeHost {
  cluster: string;
  path: string;
  eds: string | null;
  failedOutlierCheck: boolean;
}

type Obj = Record<string, unknown>;
const obj = asJsonObject;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** snake_case or camelCase (protojson): accept both. */
const pick = (o: Obj | null, snake: string, camel: string): unknown => o?.[snake] ?? o?.[camel];

/**
 * Hosts of every cluster in an Envoy `/clusters?format=json` answer. Pipe hosts and anything
 * without a socket address are counted in `skipped`; a body that is not that JSON gives `problem`.
 */
export function parseClustersJson(text: string): {
  hosts: ClusterHost[];
  /** Pipe hosts (also counted in skipped). */
  pipes: PipeHost[];
  clusters: number;
  skipped: number;
  problem: string | null;
} {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return {
      hosts: [],
      pipes: [],
      clusters: 0,
      skipped: 0,
      problem: `not JSON: ${(e as Error).message}`,
    };
  }
  const root = obj(value);
  const statuses = pick(root, 'cluster_statuses', 'clusterStatuses');
  if (!Array.isArray(statuses))
    return {
      hosts: [],
      pipes: [],
      clusters: 0,
      skipped: 0,
      problem: 'no cluster_statuses in the answer',
    };
  const hosts: ClusterHost[] = [];
  const pipes: PipeHost[] = [];
  let skipped = 0;
  for (const c of statuses) {
    const co = obj(c);
    const name = typeof co?.name === 'string' ? co.name : null;
    for (const h of arr(pick(co, 'host_statuses', 'hostStatuses'))) {
      const ho = obj(h);
      const address = obj(ho?.address);
      const sock = obj(pick(address, 'socket_address', 'socketAddress'));
      const ip = sock?.address;
      const hs = obj(pick(ho, 'health_status', 'healthStatus'));
      const edsValue = pick(hs, 'eds_health_status', 'edsHealthStatus');
      const eds = typeof edsValue === 'string' ? edsValue : null;
      const failedOutlierCheck = pick(hs, 'failed_outlier_check', 'failedOutlierCheck') === true;
      if (!name || typeof ip !== 'string') {
        skipped++;
        const path = obj(address?.pipe)?.path;
        if (name && typeof path === 'string')
          pipes.push({ cluster: name, path, eds, failedOutlierCheck });
        continue;
      }
      const port = pick(sock, 'port_value', 'portValue');
      hosts.push({
        cluster: name,
        ip: normalizeIp(ip),
        port: typeof port === 'number' ? port : null,
        health: failedOutlierCheck ? 'FAILED_OUTLIER_CHECK' : eds,
        eds,
        failedOutlierCheck,
      });
    }
  }
  return { hosts, pipes, clusters: statuses.length, skipped, problem: null };
}

/** Every address in the EndpointSlices, normalized. */
export function sliceAddresses(slices: Iterable<EndpointSlice>): Set<string> {
  const out = new Set<string>();
  for (const s of slices)
    for (const e of s.endpoints ?? []) for (const a of e.addresses) out.add(normalizeIp(a));
  return out;
}

/**
 * Hosts of the client's outbound Kubernetes-service clusters that are in no EndpointSlice:
 * its EDS still names endpoints Kubernetes has dropped. Clusters of other hosts (ServiceEntries,
 * passthrough) are not compared, since their endpoints never are in slices.
 */
export function staleHosts(
  hosts: readonly ClusterHost[],
  addresses: ReadonlySet<string>,
): { checked: number; stale: ClusterHost[] } {
  let checked = 0;
  const stale: ClusterHost[] = [];
  for (const h of hosts) {
    const c = parseClusterName(h.cluster);
    if (c?.direction !== 'outbound' || !c.fqdn || !parseServiceFqdn(c.fqdn)) continue;
    checked++;
    if (!addresses.has(h.ip)) stale.push(h);
  }
  return { checked, stale };
}
