import type { TimelineFleet } from './api';
import { workloadNameKey } from '../../lib/refs/workload-ref';

type Workload = TimelineFleet['workloads'][number];

export interface GapDatum {
  label: string;
  range: [number, number];
  median: number;
  pods: number;
  measured: number;
  /** What the bar's colour says: a race seen, an app held until its proxy started, or no gap. */
  tone: GapTone;
}

export type GapTone = 'race' | 'held' | 'ok';

const RACES: ReadonlySet<string> = new Set(['race', 'race-restart']);

/**
 * A negative gap is a race only where a pod was judged to race: a held app (hold, native) starts
 * after its proxy did and before the proxy's readiness probe passed, which is not a race.
 */
export function gapTone(minMs: number, verdicts: Readonly<Record<string, number>>): GapTone {
  if (minMs >= 0) return 'ok';
  return Object.entries(verdicts).some(([v, n]) => RACES.has(v) && n > 0) ? 'race' : 'held';
}

/** The bar colour of each tone. */
export const GAP_FILL: Record<GapTone, string> = {
  race: '#f87171',
  held: '#93c5fd',
  ok: '#34d399',
};

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
      tone: gapTone(w.minMs ?? 0, w.verdicts),
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
