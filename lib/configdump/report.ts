import { endpointsOfDump, type EndpointReport } from './endpoints';
import { extractClusters } from './clusters';
import { listenerCounts, routeCounts } from './counts';
import { proxyIdentity } from './identity';
import { parseConfigDump, readConfigDumpValue } from './parse';
import { locatePaths } from './path-position';
import { readStructuredText } from './text';
import { isZtunnelDump, readZtunnelDump, type ZtunnelParse } from './ztunnel';
import { findDeepNesting } from '../json-depth';
import { summarizeClusters } from './summary';
import type {
  ClusterRow,
  ClusterSummary,
  DumpProblem,
  ProxyIdentity,
  ResourceCounts,
} from './types';

export interface ClusterReport {
  proxy: ProxyIdentity;
  clusters: ClusterRow[];
  summary: ClusterSummary;
  warmingClusters: number;
  listeners: ResourceCounts;
  routes: ResourceCounts;
  /** Non-fatal problems (bad entries, unknown sections), each counted once. */
  errors: DumpProblem[];
}

export type ClusterReportResult =
  { ok: true; report: ClusterReport } | { ok: false; errors: DumpProblem[] };

/**
 * Text of a config dump -> everything the proxies view and `meshdx clusters` show. Fails
 * (ok: false) when the text is not a config dump or has no clusters section.
 */
export function analyzeClusterDump(text: string): ClusterReportResult {
  const parsed = parseConfigDump(text);
  if (!parsed.dump) return { ok: false, errors: parsed.errors };
  const extraction = extractClusters(parsed.dump);
  if (!extraction.hasClustersSection) {
    return { ok: false, errors: [...extraction.errors, ...parsed.errors] };
  }
  return {
    ok: true,
    report: {
      proxy: proxyIdentity(parsed.dump),
      clusters: extraction.rows,
      summary: summarizeClusters(extraction.rows),
      warmingClusters: extraction.warming,
      listeners: listenerCounts(parsed.dump),
      routes: routeCounts(parsed.dump),
      errors: [...parsed.errors, ...extraction.errors],
    },
  };
}

/** What a saved dump is: an Envoy config dump, a ztunnel one, or no dump (with why). */
export type DumpAnalysis =
  | { kind: 'envoy'; report: ClusterReport }
  | { kind: 'endpoints'; endpoints: EndpointReport }
  | { kind: 'ztunnel'; ztunnel: ZtunnelParse }
  | { kind: 'error'; errors: DumpProblem[] };

/** Deepest nesting read by default: real dumps stay far below it. */
export const DEFAULT_DUMP_MAX_DEPTH = 256;

/**
 * Reads any dump `meshdx clusters` takes: nesting is checked before parsing (a parser that
 * recurses must never meet a document deeper than maxDepth), entries that cannot be read
 * are errors with their line and column (JSON) and the rest is still read.
 */
export function analyzeDump(
  text: string,
  maxDepth = DEFAULT_DUMP_MAX_DEPTH,
  opts: { endpoints?: boolean } = {},
): DumpAnalysis {
  const deep = findDeepNesting(text, maxDepth);
  if (deep) {
    const message = `nested deeper than ${maxDepth} levels: not a config dump meshdx reads`;
    return { kind: 'error', errors: [{ reason: 'too-deep', message, ...pick(deep) }] };
  }
  const read = readStructuredText(text);
  if (read.errors.length > 0) return { kind: 'error', errors: read.errors };
  if (isZtunnelDump(read.value)) {
    const ztunnel = readZtunnelDump(read.value);
    if (read.syntax === 'json') placeErrors(text, ztunnel.errors);
    return { kind: 'ztunnel', ztunnel };
  }
  const parsed = readConfigDumpValue(read.value, read.syntax);
  if (!parsed.dump) return { kind: 'error', errors: parsed.errors };
  const extraction = extractClusters(parsed.dump);
  // the endpoint table when asked for, or when the dump holds endpoints and no clusters
  // (`/config_dump?include_eds` filtered to EDS)
  if (opts.endpoints || !extraction.hasClustersSection) {
    const { hasSection, ...endpoints } = endpointsOfDump(parsed.dump);
    if (hasSection) return { kind: 'endpoints', endpoints };
    if (opts.endpoints) {
      const message = 'config dump has no EndpointsConfigDump section (dump it with ?include_eds)';
      return { kind: 'error', errors: [{ line: 0, reason: 'no-clusters-section', message }] };
    }
  }
  if (!extraction.hasClustersSection)
    return { kind: 'error', errors: [...extraction.errors, ...parsed.errors] };
  const errors = [...parsed.errors, ...extraction.errors];
  if (read.syntax === 'json') placeErrors(text, errors);
  return {
    kind: 'envoy',
    report: {
      proxy: proxyIdentity(parsed.dump),
      clusters: extraction.rows,
      summary: summarizeClusters(extraction.rows),
      warmingClusters: extraction.warming,
      listeners: listenerCounts(parsed.dump),
      routes: routeCounts(parsed.dump),
      errors,
    },
  };
}

function pick(at: { line: number; column: number }): { line: number; column: number } {
  return { line: at.line, column: at.column };
}

/** Gives each error with a path the line and column of that path in the JSON text. */
function placeErrors(text: string, errors: DumpProblem[]): void {
  const wanted = new Set(errors.flatMap((e) => (e.path && e.line === 0 ? [e.path] : [])));
  if (wanted.size === 0) return;
  const at = locatePaths(text, wanted);
  for (const e of errors) {
    const p = e.path ? at.get(e.path) : undefined;
    if (p && e.line === 0) Object.assign(e, p);
  }
}

/** The stable JSON shape of `meshdx clusters --json`. */
export interface ClustersJson {
  kind: 'envoy';
  proxy: { id: string | null; istioVersion: string | null };
  summary: Pick<ClusterSummary, 'total' | 'static' | 'dynamic' | 'byType' | 'byDirection'>;
  clusters: ClusterJsonRow[];
  /** Entries that could not be read (the exit code is then 1). */
  errors: DumpProblem[];
}

/** A cluster row for JSON: absent values are null (istioctl's "-" is for the text table only). */
export interface ClusterJsonRow {
  name: string;
  fqdn: string;
  port: number | null;
  subset: string | null;
  direction: string | null;
  type: string;
  destinationRule: string | null;
  source: ClusterRow['source'];
}

const absent = (v: string | undefined | null): string | null =>
  v === undefined || v === null || v === '' || v === '-' ? null : v;

export function clustersJson(report: ClusterReport): ClustersJson {
  const s = report.summary;
  return {
    kind: 'envoy',
    proxy: { id: report.proxy.id, istioVersion: report.proxy.istioVersion },
    summary: {
      total: s.total,
      static: s.static,
      dynamic: s.dynamic,
      byType: s.byType,
      byDirection: s.byDirection,
    },
    clusters: report.clusters.map(clusterJsonRow),
    errors: report.errors,
  };
}

/** One row of `meshdx clusters --json` (a dump's, or an istioctl output's). */
export function clusterJsonRow(c: ClusterRow): ClusterJsonRow {
  return {
    name: c.name,
    fqdn: c.fqdn,
    port: typeof c.port === 'number' ? c.port : null,
    subset: absent(c.subset),
    direction: absent(c.direction),
    type: c.type,
    destinationRule: absent(c.destinationRule),
    source: c.source,
  };
}
