/**
 * The tables `istioctl proxy-config cluster` and `istioctl proxy-config endpoint` print, read
 * back by their header (istio/istio istioctl/pkg/writer/envoy/configdump/cluster.go,
 * endpoint.go and writer/envoy/clusters/clusters.go, every generation):
 * - cluster: `SERVICE FQDN PORT SUBSET DIRECTION TYPE` (to 1.7), then `... DESTINATION RULE`;
 *   `proxy-config all` puts `NAME` first, each name prefixed `cluster/`;
 * - endpoint from /clusters: `ENDPOINT STATUS OUTLIER CHECK CLUSTER`;
 * - endpoint from a dump (`--file`): `ENDPOINT STATUS LOCALITY CLUSTER`, `NAME STATUS LOCALITY
 *   CLUSTER` from 1.19 (`endpoint/` prefixed in `all`); an endpoint's addresses are joined by
 *   commas, an internal one is `envoy://LISTENER/ID`, one of no known kind `unknown`.
 * A column meshdx does not know is named, not silently dropped; a row that lacks a column the
 * table needs (a cut paste) is an error with its line; the rest is read.
 */
import { formatClusterName } from '../refs/cluster-name';
import { addressOfText } from './address';
import type { EndpointReport, EndpointRow } from './endpoints';
import { printedColumns, printedRows, type PrintedRow } from './printed-table';
import type { ClusterRow, DumpProblem } from './types';

const JOINED = ['SERVICE FQDN', 'DESTINATION RULE', 'OUTLIER CHECK'];

const CLUSTER_COLUMNS = ['SERVICE FQDN', 'PORT', 'SUBSET', 'DIRECTION', 'TYPE'];
const CLUSTER_KNOWN = ['NAME', ...CLUSTER_COLUMNS, 'DESTINATION RULE'];
const ENDPOINT_KNOWN = ['ENDPOINT', 'NAME', 'STATUS', 'OUTLIER CHECK', 'LOCALITY', 'CLUSTER'];

export type ProxyConfigTableKind = 'cluster' | 'endpoint';

/** Which `istioctl proxy-config` table a line is the header of, or null. */
export function proxyConfigHeaderKind(line: string): ProxyConfigTableKind | null {
  const names = printedColumns(line.replace(/\s+$/, ''), JOINED).map((c) => c.name);
  if (CLUSTER_COLUMNS.every((c) => names.includes(c))) return 'cluster';
  const first = names[0];
  if (
    (first === 'ENDPOINT' || first === 'NAME') &&
    names.includes('STATUS') &&
    names.includes('CLUSTER') &&
    (names.includes('OUTLIER CHECK') || names.includes('LOCALITY'))
  )
    return 'endpoint';
  return null;
}

function problem(line: number, message: string): DumpProblem {
  return { line, reason: 'bad-entry', message };
}

/** Where a header is, its columns, and the names among them meshdx does not read. */
function findHeader(lines: readonly string[], kind: ProxyConfigTableKind) {
  const at = lines.findIndex((l) => proxyConfigHeaderKind(l) === kind);
  if (at < 0) return null;
  const cols = printedColumns((lines[at] as string).replace(/\s+$/, ''), JOINED);
  const known = kind === 'cluster' ? CLUSTER_KNOWN : ENDPOINT_KNOWN;
  const unknown = cols.map((c) => c.name).filter((n) => !known.includes(n));
  return { at, cols, unknown };
}

function unknownColumns(line: number, unknown: readonly string[]): DumpProblem[] {
  return unknown.length === 0
    ? []
    : [
        problem(
          line,
          `column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} not read: meshdx does not know ${unknown.length > 1 ? 'them' : 'it'}`,
        ),
      ];
}

function missing(r: PrintedRow, needed: readonly string[]): string[] {
  return needed.filter((n) => !r.cells.has(n));
}

/** The Envoy cluster name a row stands for: rebuilt for Istio's inbound and outbound names. */
function clusterNameOf(
  r: PrintedRow,
  fqdn: string,
  port: number | '-',
  subset: string,
  direction: string,
): string {
  const named = r.cells.get('NAME');
  if (named) return named.replace(/^cluster\//, '');
  if ((direction === 'outbound' || direction === 'inbound') && port !== '-')
    return formatClusterName({ direction, port, subset: subset === '-' ? '' : subset, fqdn });
  return fqdn;
}

/** The rows of a `proxy-config cluster` table in a text; null when it has none. */
export function readClusterTableText(
  text: string,
): { rows: ClusterRow[]; errors: DumpProblem[]; hasDestinationRule: boolean } | null {
  const lines = text.split(/\r?\n/);
  const h = findHeader(lines, 'cluster');
  if (!h) return null;
  const errors = unknownColumns(h.at + 1, h.unknown);
  const rows: ClusterRow[] = [];
  for (const r of printedRows(lines, h.at + 1, h.cols)) {
    // an inbound cluster's SERVICE FQDN is empty (`inbound|9080||`): only the other columns
    // tell a cut row
    const lacking = missing(r, CLUSTER_COLUMNS.slice(1));
    if (lacking.length > 0) {
      errors.push(problem(r.line, `row lacks ${lacking.join(', ')} (a cut line?)`));
      continue;
    }
    const fqdn = r.cells.get('SERVICE FQDN') ?? '';
    const portText = r.cells.get('PORT') as string;
    const port = /^\d+$/.test(portText) ? Number(portText) : '-';
    const subset = r.cells.get('SUBSET') as string;
    const direction = r.cells.get('DIRECTION') as string;
    rows.push({
      name: clusterNameOf(r, fqdn, port, subset, direction),
      fqdn,
      port,
      subset,
      direction,
      type: r.cells.get('TYPE') as string,
      destinationRule: r.cells.get('DESTINATION RULE') ?? '',
      source: 'unlisted',
    });
  }
  const hasDestinationRule = h.cols.some((c) => c.name === 'DESTINATION RULE');
  return { rows, errors, hasDestinationRule };
}

/** The endpoint report of a `proxy-config endpoint` table in a text; null when it has none. */
export function readEndpointTableText(
  text: string,
): { report: EndpointReport; errors: DumpProblem[] } | null {
  const lines = text.split(/\r?\n/);
  const h = findHeader(lines, 'endpoint');
  if (!h) return null;
  const names = h.cols.map((c) => c.name);
  const admin = names.includes('OUTLIER CHECK');
  const first = names[0] as string;
  const needed = [first, 'STATUS', 'CLUSTER'];
  const errors = unknownColumns(h.at + 1, h.unknown);
  const rows: EndpointRow[] = [];
  const clusters = new Set<string>();
  let unreadable = 0;
  for (const r of printedRows(lines, h.at + 1, h.cols)) {
    const lacking = missing(r, needed);
    if (lacking.length > 0) {
      errors.push(problem(r.line, `row lacks ${lacking.join(', ')} (a cut line?)`));
      continue;
    }
    const endpoint = (r.cells.get(first) as string).replace(/^endpoint\//, '');
    const cluster = r.cells.get('CLUSTER') as string;
    clusters.add(cluster);
    const a = addressOfText(endpoint.split(',')[0] ?? '');
    if (!a || endpoint === 'unknown') {
      unreadable++;
      continue;
    }
    const outlier = r.cells.get('OUTLIER CHECK');
    rows.push({
      endpoint,
      ip: a.kind === 'pipe' ? null : a.ip,
      port: a.kind === 'pipe' ? null : a.port,
      listener: a.kind === 'internal' ? a.listener : null,
      status: r.cells.get('STATUS') as string,
      failedOutlierCheck: admin ? outlier === 'FAILED' : null,
      cluster,
      workload: null,
      locality: admin ? null : (r.cells.get('LOCALITY') ?? ''),
    });
  }
  return {
    report: {
      source: admin ? 'admin-clusters' : 'config-dump',
      rows,
      clusters: clusters.size,
      unreadable,
      unnamed: 0,
      problem: null,
    },
    errors,
  };
}
