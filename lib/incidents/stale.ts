import { normalizeIp } from '../accesslog/address';
import { parseClusterName } from '../refs/cluster-name';
import type { EndpointSlice } from '../kube/types';
import { parseServiceFqdn } from '../refs/service-host';
import { asJsonObject } from '../json-object';
import { readClusterStatuses } from '../configdump/host-status';
import { internalAddressText } from '../configdump/address';

/**
 * One upstream host in Envoy's /clusters?format=json with an IP: a socket address, or an
 * internal address (`envoy://connect_originate/IP:PORT`, HBONE to an ambient pod) whose
 * endpoint id holds the pod's IP.
 */
export interface ClusterHost {
  cluster: string;
  ip: string;
  port: number | null;
  /** The internal listener the host is reached through; null for a socket address. */
  listener: string | null;
  /** The endpoint id of an internal address as Envoy wrote it; null for a socket address. */
  endpointId: string | null;
  /** FAILED_OUTLIER_CHECK when outlier detection ejected it, else its EDS health. */
  health: string | null;
  /** health_status.eds_health_status as Envoy wrote it (HEALTHY, UNHEALTHY, DRAINING...). */
  eds: string | null;
  failedOutlierCheck: boolean;
}

/**
 * A host without an IP to compare: a Unix socket (a pipe address), or an internal address
 * whose endpoint id is no `IP:PORT`. `path` is what istioctl prints for it.
 */
export interface PipeHost {
  cluster: string;
  path: string;
  eds: string | null;
  failedOutlierCheck: boolean;
}

const obj = asJsonObject;

/**
 * Hosts of every cluster in an Envoy `/clusters?format=json` answer, or of the list
 * `istioctl proxy-config endpoint -o json|yaml` prints (`value` already parsed). Pipe hosts
 * (and internal addresses without an IP) are in `pipes`; `skipped` counts them and the hosts
 * without any address (`unaddressed`), one per host; a body that is not that JSON gives
 * `problem`.
 */
export function parseClustersJson(
  text: string,
  value?: unknown,
): {
  hosts: ClusterHost[];
  /** Hosts without an IP (also counted in skipped). */
  pipes: PipeHost[];
  clusters: number;
  skipped: number;
  /** Hosts with no address at all (counted in skipped). */
  unaddressed: number;
  /** Cluster entries without a name (their hosts are kept, with cluster ''). */
  unnamed: number;
  problem: string | null;
} {
  const none = { hosts: [], pipes: [], clusters: 0, skipped: 0, unaddressed: 0, unnamed: 0 };
  let root = value;
  if (root === undefined)
    try {
      root = JSON.parse(text);
    } catch (e) {
      return { ...none, problem: `not JSON: ${(e as Error).message}` };
    }
  const statuses = Array.isArray(root)
    ? root
    : (obj(root)?.cluster_statuses ?? obj(root)?.clusterStatuses);
  if (!Array.isArray(statuses)) return { ...none, problem: 'no cluster_statuses in the answer' };
  const read = readClusterStatuses(statuses);
  const hosts: ClusterHost[] = [];
  const pipes: PipeHost[] = [];
  let unaddressed = 0;
  for (const h of read.hosts) {
    const a = h.address;
    const { eds, failedOutlierCheck } = h;
    const health = failedOutlierCheck ? 'FAILED_OUTLIER_CHECK' : eds;
    if (a === null) unaddressed++;
    else if (a.kind === 'socket')
      hosts.push({
        cluster: h.cluster,
        ip: a.ip,
        port: a.port,
        listener: null,
        endpointId: null,
        health,
        eds,
        failedOutlierCheck,
      });
    else if (a.kind === 'internal' && a.ip !== null)
      hosts.push({
        cluster: h.cluster,
        ip: a.ip,
        port: a.port,
        listener: a.listener,
        endpointId: a.endpointId,
        health,
        eds,
        failedOutlierCheck,
      });
    else {
      const path = a.kind === 'pipe' ? a.path : internalAddressText(a.listener, a.endpointId);
      pipes.push({ cluster: h.cluster, path, eds, failedOutlierCheck });
    }
  }
  return {
    hosts,
    pipes,
    clusters: read.clusters,
    skipped: pipes.length + unaddressed,
    unaddressed,
    unnamed: read.unnamed,
    problem: null,
  };
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
