/**
 * The `istioctl proxy-config endpoint` table: every host each cluster of a proxy holds, its
 * health, and whether outlier detection ejected it. This is what a client proxy still sends to
 * during an incident (a pod IP that is gone, a host ejected after 5xx), read from the proxy's
 * own state rather than from Kubernetes. Two sources: a saved `/clusters?format=json` answer
 * (health and outlier state), or a config dump's EndpointsConfigDump (`?include_eds`: health
 * and the workload istiod named for each endpoint, no outlier state).
 */
import { normalizeIp } from '../accesslog/address';
import { parseClusterName } from '../refs/cluster-name';
import { parseClustersJson, type ClusterHost, type PipeHost } from '../incidents/stale';
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
  /** ip:port ([ip]:port for IPv6), or unix://path for a pipe. */
  endpoint: string;
  ip: string | null;
  port: number | null;
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
  /** Hosts without a socket or pipe address (nothing to show for them). */
  unreadable: number;
  problem: string | null;
}

function endpointOf(h: { ip: string; port: number | null }): string {
  if (h.port === null) return h.ip;
  return h.ip.includes(':') ? `[${h.ip}]:${h.port}` : `${h.ip}:${h.port}`;
}

const rowOfHost = (h: ClusterHost): EndpointRow => ({
  endpoint: endpointOf(h),
  ip: h.ip,
  port: h.port,
  status: h.eds ?? 'UNKNOWN',
  failedOutlierCheck: h.failedOutlierCheck,
  cluster: h.cluster,
  workload: null,
  locality: null,
});

const rowOfPipe = (p: PipeHost): EndpointRow => ({
  endpoint: `unix://${p.path}`,
  ip: null,
  port: null,
  status: p.eds ?? 'UNKNOWN',
  failedOutlierCheck: p.failedOutlierCheck,
  cluster: p.cluster,
  workload: null,
  locality: null,
});

/** Sorted as istioctl sorts: by address, then port, then cluster. */
function compareRows(a: EndpointRow, b: EndpointRow): number {
  const addr = (r: EndpointRow) => r.ip ?? r.endpoint;
  if (addr(a) !== addr(b)) return addr(a) < addr(b) ? -1 : 1;
  if ((a.port ?? 0) !== (b.port ?? 0)) return (a.port ?? 0) - (b.port ?? 0);
  return a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0;
}

/** The rows of a `/clusters?format=json` answer (snake_case or camelCase). */
export function endpointReport(text: string): EndpointReport {
  const parsed = parseClustersJson(text);
  const rows = [...parsed.hosts.map(rowOfHost), ...parsed.pipes.map(rowOfPipe)].sort(compareRows);
  return {
    source: 'admin-clusters',
    rows,
    clusters: parsed.clusters,
    unreadable: parsed.skipped - parsed.pipes.length,
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
  const out: EndpointReport = {
    source: 'config-dump',
    rows: [],
    clusters: 0,
    unreadable: 0,
    problem: null,
  };
  const assignments: { key: ClusterKey; rows: EndpointRow[] }[] = [];
  const sections = sectionsOf(dump, 'endpoints');
  for (const s of sections)
    for (const key of ['dynamic_endpoint_configs', 'static_endpoint_configs'])
      for (const entry of arrayField(s.body, key) ?? []) {
        const cla = field(entry, 'endpoint_config');
        const cluster = field(cla, 'cluster_name');
        if (typeof cluster !== 'string') {
          out.unreadable++;
          continue;
        }
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
        assignments.push({ key: clusterKey(cluster), rows });
      }
  // a stable sort: hosts of one cluster keep the dump's order
  assignments.sort((a, b) => compareClusterKeys(a.key, b.key));
  out.rows = assignments.flatMap((a) => a.rows);
  return { ...out, hasSection: sections.length > 0 };
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

function rowOfLbEndpoint(lb: unknown, cluster: string, locality: string): EndpointRow | null {
  const address = field(field(lb, 'endpoint'), 'address');
  const health = field(lb, 'health_status');
  const status = typeof health === 'string' ? health : 'UNKNOWN';
  const workload = workloadNameOf(field(field(field(lb, 'metadata'), 'filter_metadata'), 'istio'));
  const base = { status, failedOutlierCheck: null, cluster, workload, locality };
  const sock = field(address, 'socket_address');
  const ip = field(sock, 'address');
  if (typeof ip === 'string') {
    const portValue = field(sock, 'port_value');
    const port = typeof portValue === 'number' ? portValue : null;
    const n = normalizeIp(ip);
    return { ...base, endpoint: endpointOf({ ip: n, port }), ip: n, port };
  }
  const path = field(field(address, 'pipe'), 'path');
  if (typeof path !== 'string') return null;
  // istioctl prints a pipe's path as it is
  return { ...base, endpoint: path, ip: null, port: null };
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
  const head = `${report.rows.length} endpoints in ${report.clusters} clusters: ${unhealthy} not HEALTHY`;
  if (report.source === 'config-dump')
    return `${head} (a config dump holds no outlier ejections: read /clusters?format=json for them)`;
  const ejected = report.rows.filter((r) => r.failedOutlierCheck).length;
  return `${head}, ${ejected} ejected by outlier detection`;
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
