import type { TimelineFleet } from '../../lib/api/timelines';
import { workloadNameKey } from '../../lib/refs/workload-ref';

type Workload = TimelineFleet['workloads'][number];

export interface GapDatum {
  label: string;
  range: [number, number];
  median: number;
  pods: number;
  measured: number;
}

/** Workloads with a measured gap, worst (most negative) first, at most `limit`. */
export function gapData(workloads: readonly Workload[], limit: number): GapDatum[] {
  return workloads
    .filter((w) => w.minMs !== null && w.maxMs !== null)
    .map((w) => ({
      label: workloadNameKey(w.namespace, w.name),
      range: [(w.minMs ?? 0) / 1000, (w.maxMs ?? 0) / 1000] as [number, number],
      median: (w.medianMs ?? 0) / 1000,
      pods: w.pods,
      measured: w.measured,
    }))
    .sort((a, b) => a.range[0] - b.range[0] || a.label.localeCompare(b.label))
    .slice(0, limit);
}

/**
 * The gap axis: every workload's min..max and zero (proxy ready) on one numeric axis, padded to
 * a round number of seconds, so a bar's position is its true gap and never a category slot.
 */
export function gapDomain(data: readonly GapDatum[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const d of data) {
    lo = Math.min(lo, d.range[0], d.median);
    hi = Math.max(hi, d.range[1], d.median);
  }
  const span = Math.max(1, hi - lo);
  const step = span <= 5 ? 0.5 : span <= 20 ? 1 : span <= 60 ? 5 : 10;
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/** The chart's height for that many workloads (a bar row each, room for the axis and labels). */
export function gapChartHeight(workloads: number): number {
  return workloads * 24 + 72;
}
