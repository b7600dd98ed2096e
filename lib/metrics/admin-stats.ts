/**
 * Envoy admin `/stats` plain text: `name: value` per line. Histogram lines
 * (`name: P0(nan,0) P25(...)` or `name: No recorded values`) are skipped and counted; text
 * readouts (`name: "text"`) are kept apart.
 */
import { excerptOf } from '../parse-problem';
import { check, COUNTER, describeImplausible } from '../plausible/checks';
import type { MetricsProblem } from './types';

export interface AdminStat {
  name: string;
  value: number;
  line: number;
}

export interface AdminStatsResult {
  stats: AdminStat[];
  textReadouts: { name: string; value: string; line: number }[];
  errors: MetricsProblem[];
  counts: {
    lines: number;
    stats: number;
    histograms: number;
    textReadouts: number;
    blank: number;
    errors: number;
  };
}

const HISTOGRAM = /: (P0\(|No recorded values)/;

export function parseEnvoyStatsText(input: string): AdminStatsResult {
  const out: AdminStatsResult = {
    stats: [],
    textReadouts: [],
    errors: [],
    counts: { lines: 0, stats: 0, histograms: 0, textReadouts: 0, blank: 0, errors: 0 },
  };
  const lines = input.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    const line = i + 1;
    const text = raw.replace(/\r$/, '');
    out.counts.lines++;
    if (text.trim() === '') {
      out.counts.blank++;
      return;
    }
    if (HISTOGRAM.test(text)) {
      out.counts.histograms++;
      return;
    }
    const sep = text.lastIndexOf(': ');
    const name = sep > 0 ? text.slice(0, sep).trim() : '';
    const rawValue = sep > 0 ? text.slice(sep + 2).trim() : '';
    if (name && /^".*"$/.test(rawValue)) {
      out.textReadouts.push({ name, value: rawValue.slice(1, -1), line });
      out.counts.textReadouts++;
      return;
    }
    if (!name || !/^-?\d+(\.\d+)?$/.test(rawValue)) {
      out.counts.errors++;
      const message = !name ? 'expected "name: value"' : `invalid value "${rawValue}"`;
      out.errors.push({ line, reason: 'bad-stat', message, excerpt: excerptOf(text, 200) });
      return;
    }
    // Envoy's counters and gauges are unsigned integers: anything else is a line that cannot be
    // believed, counted with the line's errors (its raw value in the message), never used
    const checked = check(name, Number(rawValue), COUNTER);
    if (!checked.ok) {
      out.counts.errors++;
      out.errors.push({
        line,
        reason: 'bad-stat',
        message: describeImplausible(checked.implausible),
        excerpt: excerptOf(text, 200),
      });
      return;
    }
    out.stats.push({ name, value: checked.value, line });
    out.counts.stats++;
  });
  return out;
}

export interface ClusterCounter {
  /** Cluster name as Envoy wrote it in the stat name. */
  cluster: string;
  counter: string;
  value: number;
}

/**
 * Per-cluster counters `cluster.<name>.<counter>`. Cluster names contain `|` and dots, so the
 * name is what lies between `cluster.` and the known counter suffix. A trailing `;` seen on
 * cluster names in some Istio releases' /stats output is removed so names match config dumps.
 */
export function clusterCounters(
  stats: readonly AdminStat[],
  counters: readonly string[] = ['upstream_rq_total', 'upstream_cx_total'],
): ClusterCounter[] {
  const out: ClusterCounter[] = [];
  for (const s of stats) {
    if (!s.name.startsWith('cluster.')) continue;
    for (const counter of counters) {
      const suffix = `.${counter}`;
      if (!s.name.endsWith(suffix)) continue;
      const cluster = s.name.slice('cluster.'.length, -suffix.length).replace(/;$/, '');
      if (cluster) out.push({ cluster, counter, value: s.value });
      break;
    }
  }
  return out;
}

/** clusterCounters folded into cluster -> counter -> value. */
export function clusterCounterTable(
  stats: readonly AdminStat[],
  counters?: readonly string[],
): Record<string, Record<string, number>> {
  const table: Record<string, Record<string, number>> = {};
  for (const c of clusterCounters(stats, counters)) {
    const row = (table[c.cluster] ??= {});
    row[c.counter] = c.value;
  }
  return table;
}
