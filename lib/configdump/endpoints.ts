/**
 * The `istioctl proxy-config endpoint` table from a saved Envoy `/clusters?format=json` answer:
 * every host each cluster holds, its EDS health and whether outlier detection ejected it. This
 * is what a client proxy still sends to during an incident (a pod IP that is gone, a host
 * ejected after 5xx), read from the proxy's own state rather than from Kubernetes.
 */
import { parseClustersJson, type ClusterHost, type PipeHost } from '../incidents/stale';
import { tabulate } from './table';

export const ENDPOINT_TABLE_HEADER = ['ENDPOINT', 'STATUS', 'OUTLIER CHECK', 'CLUSTER'] as const;

export interface EndpointRow {
  /** ip:port ([ip]:port for IPv6), or unix://path for a pipe. */
  endpoint: string;
  ip: string | null;
  port: number | null;
  /** The EDS health Envoy reports; UNKNOWN when it reports none (as istioctl prints it). */
  status: string;
  failedOutlierCheck: boolean;
  cluster: string;
}

export interface EndpointReport {
  rows: EndpointRow[];
  clusters: number;
  /** Hosts without a socket or pipe address (nothing to show for them). */
  unreadable: number;
  problem: string | null;
}

function endpointOf(h: ClusterHost): string {
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
});

const rowOfPipe = (p: PipeHost): EndpointRow => ({
  endpoint: `unix://${p.path}`,
  ip: null,
  port: null,
  status: p.eds ?? 'UNKNOWN',
  failedOutlierCheck: p.failedOutlierCheck,
  cluster: p.cluster,
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
    rows,
    clusters: parsed.clusters,
    unreadable: parsed.skipped - parsed.pipes.length,
    problem: parsed.problem,
  };
}

export function formatEndpointTable(rows: readonly EndpointRow[]): string {
  return tabulate([
    [...ENDPOINT_TABLE_HEADER],
    ...rows.map((r) => [r.endpoint, r.status, r.failedOutlierCheck ? 'FAILED' : 'OK', r.cluster]),
  ]);
}

/** One line on what the table holds: what an SRE looks for first. */
export function endpointSummary(report: EndpointReport): string {
  const unhealthy = report.rows.filter((r) => r.status !== 'HEALTHY').length;
  const ejected = report.rows.filter((r) => r.failedOutlierCheck).length;
  return `${report.rows.length} endpoints in ${report.clusters} clusters: ${unhealthy} not HEALTHY, ${ejected} ejected by outlier detection`;
}
