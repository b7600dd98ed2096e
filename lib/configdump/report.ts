import { extractClusters } from './clusters';
import { listenerCounts, routeCounts } from './counts';
import { proxyIdentity } from './identity';
import { parseConfigDump } from './parse';
import { summarizeClusters } from './summary';
import type { ClusterRow, ClusterSummary, DumpError, ProxyIdentity, ResourceCounts } from './types';

export interface ClusterReport {
  proxy: ProxyIdentity;
  clusters: ClusterRow[];
  summary: ClusterSummary;
  warmingClusters: number;
  listeners: ResourceCounts;
  routes: ResourceCounts;
  /** Non-fatal problems (bad entries, unknown sections), each counted once. */
  errors: DumpError[];
}

export type ClusterReportResult =
  { ok: true; report: ClusterReport } | { ok: false; errors: DumpError[] };

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

/** The stable JSON shape of `meshdx clusters --json`. */
export interface ClustersJson {
  proxy: { id: string | null; istioVersion: string | null };
  summary: Pick<ClusterSummary, 'total' | 'static' | 'dynamic' | 'byType' | 'byDirection'>;
  clusters: ClusterJsonRow[];
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
    proxy: { id: report.proxy.id, istioVersion: report.proxy.istioVersion },
    summary: {
      total: s.total,
      static: s.static,
      dynamic: s.dynamic,
      byType: s.byType,
      byDirection: s.byDirection,
    },
    clusters: report.clusters.map((c) => ({
      name: c.name,
      fqdn: c.fqdn,
      port: typeof c.port === 'number' ? c.port : null,
      subset: absent(c.subset),
      direction: absent(c.direction),
      type: c.type,
      destinationRule: absent(c.destinationRule),
      source: c.source,
    })),
  };
}

/** One-line description of a fatal error, with position when known. */
export function describeDumpError(e: DumpError): string {
  const where =
    e.line !== undefined
      ? ` (line ${e.line}${e.column !== undefined ? `, column ${e.column}` : ''})`
      : '';
  return `${e.message}${where}`;
}
