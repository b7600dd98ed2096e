/**
 * The `istioctl proxy-config endpoint` table: every host each cluster of a proxy holds, its
 * health, and whether outlier detection ejected it. This is what a client proxy still sends to
 * during an incident (a pod IP that is gone, a host ejected after 5xx), read from the proxy's
 * own state rather than from Kubernetes. Two sources: a saved `/clusters?format=json` answer
 * (health and outlier state), or a config dump's EndpointsConfigDump (`?include_eds`: health
 * and the workload istiod named for each endpoint, no outlier state).
 */
import { parseClusterName } from '../refs/cluster-name';
import { parseClustersJson, type ClusterHost, type PipeHost } from '../incidents/stale';
import { envoyAddress, internalAddressText, type EnvoyAddress } from './address';
import type { IpHistory } from '../ledger/ip-history';
import type { HolderState } from '../ledger/types';
import { arrayField, field } from './fields';
import { sectionsOf } from './parse';
import { tabulate } from './table';
import type { ConfigDump } from './types';
import { podKeyOf } from '../refs/pod-ref';
import { workloadNameKey } from '../refs/workload-ref';

/** istioctl proxy-config endpoint's columns for a /clusters answer. */
export const ENDPOINT_TABLE_HEADER = ['ENDPOINT', 'STATUS', 'OUTLIER CHECK', 'CLUSTER'] as const;
/** ... and for a config dump's EDS (`istioctl proxy-config endpoint --file DUMP`). */
export const EDS_TABLE_HEADER = ['ENDPOINT', 'STATUS', 'LOCALITY', 'CLUSTER'] as const;

export interface EndpointRow {
  /**
   * As istioctl prints it: ip:port ([ip]:port for IPv6), unix://path (a pipe in /clusters; its
   * bare path in EDS), envoy://LISTENER/ID for an internal address; EDS joins an endpoint's
   * additional addresses with commas.
   */
  endpoint: string;
  /** The IP to attribute: a socket's, or the pod IP inside an internal address's id. */
  ip: string | null;
  port: number | null;
  /** The internal listener it is reached through (`connect_originate`); null otherwise. */
  listener: string | null;
  /** The EDS health Envoy reports; UNKNOWN when it reports none (as istioctl prints it). */
  status: string;
  /** null where the source does not say (a config dump's EDS holds no outlier state). */
  failedOutlierCheck: boolean | null;
  cluster: string;
  /** namespace/name of the workload istiod sent with the endpoint (EDS metadata), if any. */
  workload: string | null;
  /** region/zone/subzone of its locality (EDS), '' when none is set; null from /clusters. */
  locality: string | null;
}

export interface EndpointReport {
  /** Envoy's /clusters answer, or a config dump's EndpointsConfigDump. */
  source: 'admin-clusters' | 'config-dump';
  rows: EndpointRow[];
  clusters: number;
  /**
   * Hosts with no address at all (neither socket, pipe nor internal listener): not in `rows`,
   * counted one per host. Internal addresses are rows (istioctl prints them).
   */
  unreadable: number;
  /** Clusters (or load assignments) without a name: their hosts are rows with cluster ''. */
  unnamed: number;
  problem: string | null;
}

function endpointOf(h: { ip: string; port: number | null }): string {
  if (h.port === null) return h.ip;
  return h.ip.includes(':') ? `[${h.ip}]:${h.port}` : `${h.ip}:${h.port}`;
}

const rowOfHost = (h: ClusterHost): EndpointRow => ({
  endpoint:
    h.listener !== null && h.endpointId !== null
      ? internalAddressText(h.listener, h.endpointId)
      : endpointOf(h),
  ip: h.ip,
  port: h.port,
  listener: h.listener,
  status: h.eds ?? 'UNKNOWN',
  failedOutlierCheck: h.failedOutlierCheck,
  cluster: h.cluster,
  workload: null,
  locality: null,
});

const rowOfPipe = (p: PipeHost): EndpointRow => ({
  endpoint: p.path.startsWith('envoy://') ? p.path : `unix://${p.path}`,
  ip: null,
  port: null,
  listener: p.path.startsWith('envoy://') ? (/^envoy:\/\/([^/]*)/.exec(p.path)?.[1] ?? null) : null,
  status: p.eds ?? 'UNKNOWN',
  failedOutlierCheck: p.failedOutlierCheck,
  cluster: p.cluster,
  workload: null,
  locality: null,
});

/** Sorted as istioctl sorts: by address (an internal one as printed), then port, then cluster. */
function compareRows(a: EndpointRow, b: EndpointRow): number {
  const addr = (r: EndpointRow) => (r.listener !== null ? r.endpoint : (r.ip ?? r.endpoint));
  if (addr(a) !== addr(b)) return addr(a) < addr(b) ? -1 : 1;
  if ((a.port ?? 0) !== (b.port ?? 0)) return (a.port ?? 0) - (b.port ?? 0);
  return a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0;
}

/**
 * The rows of a `/clusters?format=json` answer (snake_case or camelCase), or of the list
 * `istioctl proxy-config endpoint -o json|yaml` prints (pass it parsed as `value`).
 */
export function endpointReport(text: string, value?: unknown): EndpointReport {
  const parsed = parseClustersJson(text, value);
  const rows = [...parsed.hosts.map(rowOfHost), ...parsed.pipes.map(rowOfPipe)].sort(compareRows);
  return {
    source: 'admin-clusters',
    rows,
    clusters: parsed.clusters,
    unreadable: parsed.unaddressed,
    unnamed: parsed.unnamed,
    problem: parsed.problem,
  };
}

/**
 * The endpoints of a config dump's EndpointsConfigDump: each ClusterLoadAssignment's hosts with
 * their health, locality and the workload istiod named for them (`istio.workload` metadata,
 * `name;namespace;app;version;cluster`), clusters in istioctl's order (service, subset, port,
 * direction; dynamic before static), hosts in the dump's. `hasSection` is false when the dump
 * has none.
 */
export function endpointsOfDump(dump: ConfigDump): EndpointReport & { hasSection: boolean } {
  const sections = sectionsOf(dump, 'endpoints');
  const assignments = sections.flatMap((s) =>
    ['dynamic_endpoint_configs', 'static_endpoint_configs'].flatMap((key) =>
      (arrayField(s.body, key) ?? []).map((entry) => field(entry, 'endpoint_config')),
    ),
  );
  return { ...loadAssignmentReport(assignments), hasSection: sections.length > 0 };
}

/**
 * The endpoint table of ClusterLoadAssignments: a config dump's, or the list `istioctl
 * proxy-config endpoint --file DUMP -o json|yaml` prints. An assignment without a cluster name
 * keeps its hosts (cluster ''); a host with no address is counted, one per host.
 */
export function loadAssignmentReport(assignments: readonly unknown[]): EndpointReport {
  const out: EndpointReport = {
    source: 'config-dump',
    rows: [],
    clusters: 0,
    unreadable: 0,
    unnamed: 0,
    problem: null,
  };
  const sorted: { key: ClusterKey; rows: EndpointRow[] }[] = [];
  for (const cla of assignments) {
    const name = field(cla, 'cluster_name');
    const cluster = typeof name === 'string' ? name : '';
    if (cluster === '') out.unnamed++;
    out.clusters++;
    const rows: EndpointRow[] = [];
    for (const group of arrayField(cla, 'endpoints') ?? []) {
      const locality = localityOf(field(group, 'locality'));
      for (const lb of arrayField(group, 'lb_endpoints') ?? []) {
        const row = rowOfLbEndpoint(lb, cluster, locality);
        if (row) rows.push(row);
        else out.unreadable++;
      }
    }
    sorted.push({ key: clusterKey(cluster), rows });
  }
  // a stable sort: hosts of one cluster keep the dump's order
  sorted.sort((a, b) => compareClusterKeys(a.key, b.key));
  out.rows = sorted.flatMap((a) => a.rows);
  return out;
}

/** Whether a parsed value is the list `istioctl proxy-config endpoint --file -o json` prints. */
export function isLoadAssignmentList(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (v) => typeof field(v, 'cluster_name') === 'string' && !('host_statuses' in Object(v)),
    )
  );
}

/** What istioctl orders ClusterLoadAssignments by: service name, subset, port, direction. */
interface ClusterKey {
  name: string;
  subset: string;
  port: number;
  dir: string;
}

/** A cluster name's sort key (made once per cluster, not per comparison). */
function clusterKey(cluster: string): ClusterKey {
  const c = parseClusterName(cluster);
  return c?.direction
    ? { name: c.fqdn ?? '', subset: c.subset ?? '', port: c.port ?? 0, dir: c.direction }
    : { name: cluster, subset: '', port: 0, dir: '' };
}

function compareClusterKeys(x: ClusterKey, y: ClusterKey): number {
  if (x.name !== y.name) return x.name < y.name ? -1 : 1;
  if (x.subset !== y.subset) return x.subset < y.subset ? -1 : 1;
  if (x.port !== y.port) return x.port - y.port;
  return x.dir < y.dir ? -1 : x.dir > y.dir ? 1 : 0;
}

/** region/zone/subzone as istioctl prints a locality; '' when none is set. */
function localityOf(locality: unknown): string {
  const parts = ['region', 'zone', 'sub_zone'].map((k) => field(locality, k));
  const text = parts.map((p) => (typeof p === 'string' ? p : ''));
  return text.every((t) => t === '') ? '' : text.join('/');
}

/** What istioctl prints for one address of an EDS endpoint. */
function edsAddressText(a: EnvoyAddress): string {
  if (a.kind === 'socket') return `${a.ip}:${a.port ?? 0}`;
  if (a.kind === 'pipe') return a.path;
  return internalAddressText(a.listener, a.endpointId);
}

function rowOfLbEndpoint(lb: unknown, cluster: string, locality: string): EndpointRow | null {
  const ep = field(lb, 'endpoint');
  const address = envoyAddress(field(ep, 'address'));
  if (!address) return null;
  const health = field(lb, 'health_status');
  const status = typeof health === 'string' ? health : 'UNKNOWN';
  const workload = workloadNameOf(field(field(field(lb, 'metadata'), 'filter_metadata'), 'istio'));
  // istioctl joins the endpoint's additional addresses (dual stack) after the first
  const more = (arrayField(ep, 'additional_addresses') ?? []).map((x) => {
    const a = envoyAddress(field(x, 'address'));
    return a ? edsAddressText(a) : 'unknown';
  });
  const first =
    address.kind === 'socket'
      ? endpointOf({ ip: address.ip, port: address.port })
      : edsAddressText(address);
  const endpoint = [first, ...more].join(',');
  const base = { endpoint, status, failedOutlierCheck: null, cluster, workload, locality };
  if (address.kind === 'socket')
    return { ...base, ip: address.ip, port: address.port, listener: null };
  if (address.kind === 'internal')
    return { ...base, ip: address.ip, port: address.port, listener: address.listener };
  return { ...base, ip: null, port: null, listener: null };
}

/** `istio.workload` metadata (`name;namespace;...`) as namespace/name. */
function workloadNameOf(istio: unknown): string | null {
  const w = field(istio, 'workload');
  if (typeof w !== 'string') return null;
  const [name, namespace] = w.split(';');
  return name && namespace ? workloadNameKey(namespace, name) : null;
}

/**
 * istioctl's table for the report's source; a config dump's gets a WORKLOAD column after
 * istioctl's (meshdx's: the workload istiod named for each endpoint). With `holders`, two
 * more: the pod that held each endpoint's IP at the time, and its state then.
 */
export function formatEndpointTable(
  report: Pick<EndpointReport, 'source' | 'rows'>,
  holders?: readonly (EndpointHolder | null)[],
): string {
  const cells: string[][] =
    report.source === 'admin-clusters'
      ? [
          [...ENDPOINT_TABLE_HEADER],
          ...report.rows.map((r) => [
            r.endpoint,
            r.status,
            r.failedOutlierCheck ? 'FAILED' : 'OK',
            r.cluster,
          ]),
        ]
      : [
          [...EDS_TABLE_HEADER, 'WORKLOAD'],
          ...report.rows.map((r) => [
            r.endpoint,
            r.status,
            r.locality ?? '',
            r.cluster,
            r.workload ?? '-',
          ]),
        ];
  if (holders) {
    cells[0]?.push('HELD BY', 'POD STATE');
    holders.forEach((h, i) => cells[i + 1]?.push(h?.pod ?? '-', h?.state ?? '-'));
  }
  return tabulate(cells);
}

/** One line on what the table holds: what an SRE looks for first. */
export function endpointSummary(report: EndpointReport): string {
  const unhealthy = report.rows.filter((r) => r.status !== 'HEALTHY').length;
  const internal = report.rows.filter((r) => r.listener !== null).length;
  const unnamed = report.unnamed > 0 ? ` (${report.unnamed} without a name: cluster '')` : '';
  const via =
    internal > 0
      ? `, ${internal} through an internal listener (envoy://LISTENER/IP:PORT, the pod IP inside)`
      : '';
  const head = `${report.rows.length} endpoints in ${report.clusters} clusters${unnamed}: ${unhealthy} not HEALTHY${via}`;
  if (report.source === 'config-dump')
    return `${head} (a config dump holds no outlier ejections: read /clusters?format=json for them)`;
  const ejected = report.rows.filter((r) => r.failedOutlierCheck).length;
  return `${head}, ${ejected} ejected by outlier detection`;
}

/** The sentence for hosts that are not in the table, or null when every host is. */
export function hiddenHostsText(report: Pick<EndpointReport, 'unreadable'>): string | null {
  if (report.unreadable === 0) return null;
  const n = report.unreadable;
  return `${n} host${n === 1 ? ' has' : 's have'} no address (neither socket, pipe nor internal listener): not shown`;
}

/** Who held an endpoint's IP at a time, from a pod-IP history. */
export interface EndpointHolder {
  /** namespace/name of the pod that held the IP then; null when the history knows none. */
  pod: string | null;
  state: HolderState;
  /** What the history says of it (the lookup's own words). */
  reason: string;
}

/**
 * Each row's holder at `time` (epoch ms), null for a row without an IP (a pipe). An endpoint
 * whose pod was gone by then is a phantom: the proxy still balances requests onto it, however
 * long ago the pod went (unlike a request's lookup, no gap tolerance makes it unknown: a
 * proxy holding an endpoint of a pod gone an hour ago is the finding).
 */
export function endpointHolders(
  rows: readonly EndpointRow[],
  history: IpHistory,
  time: number,
): (EndpointHolder | null)[] {
  return rows.map((r) => {
    if (r.ip === null) return null;
    const l = history.at(r.ip, time, Number.POSITIVE_INFINITY);
    const pod = l.holder ? podKeyOf(l.holder) : null;
    return { pod, state: l.state, reason: l.reason };
  });
}

/** What the holders say, in one line: the endpoints an SRE acts on first. */
export function holderSummary(holders: readonly (EndpointHolder | null)[], time: number): string {
  const count = (s: HolderState) => holders.filter((h) => h?.state === s).length;
  const at = new Date(time).toISOString();
  return `at ${at}: ${count('terminated')} endpoints of pods already gone, ${count('terminating')} of terminating pods, ${count('unknown')} of IPs no pod is known to hold, ${count('live')} live`;
}
