/**
 * Destinations a proxy called, from its access log text: each record's upstream cluster becomes
 * a hit. Proxy log lines are skipped and counted; unreadable lines are counted; records without
 * an upstream cluster (pre-1.1 formats, custom formats without it) are counted, never silently
 * dropped. The screen reads the log (server/screens/scoping/access-logs.ts).
 */
import { parseAccessLog } from '../accesslog/parser';
import type { TrafficHit } from './types';

export interface AccessLogUsage {
  hits: TrafficHit[];
  records: number;
  /** Records that name no upstream cluster. */
  withoutCluster: number;
  /** Proxy (non access-log) lines and blank lines. */
  skipped: number;
  /** Lines that looked like data but could not be read. */
  errors: number;
  /** Earliest and latest record time (epoch ms), when records carried one. */
  firstMs: number | null;
  lastMs: number | null;
}

export function usageFromAccessLog(text: string, format?: string): AccessLogUsage {
  const byCluster = new Map<string, number>();
  const out: AccessLogUsage = {
    hits: [],
    records: 0,
    withoutCluster: 0,
    skipped: 0,
    errors: 0,
    firstMs: null,
    lastMs: null,
  };
  for (const r of parseAccessLog(text, format ? { format } : {})) {
    if (r.kind === 'skipped') {
      out.skipped++;
      continue;
    }
    if (r.kind === 'error') {
      out.errors++;
      continue;
    }
    out.records++;
    const t = r.record.time;
    if (t !== null) {
      out.firstMs = out.firstMs === null ? t : Math.min(out.firstMs, t);
      out.lastMs = out.lastMs === null ? t : Math.max(out.lastMs, t);
    }
    const cluster = r.record.upstreamCluster;
    if (!cluster) {
      out.withoutCluster++;
      continue;
    }
    byCluster.set(cluster, (byCluster.get(cluster) ?? 0) + 1);
  }
  out.hits = [...byCluster].map(([cluster, count]) => ({ cluster, count }));
  return out;
}
