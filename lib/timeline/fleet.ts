/** Fleet summary: verdict and mode counts, and per-workload startup gap distribution. */
import { median } from './time';
import type { PodTimeline } from './types';
import { workloadKey } from '../refs/workload-ref';

export interface WorkloadGaps {
  namespace: string;
  kind: string;
  name: string;
  pods: number;
  /** Pods with a measurable gap. */
  measured: number;
  minMs: number | null;
  medianMs: number | null;
  maxMs: number | null;
  verdicts: Record<string, number>;
}

export interface FleetSummary {
  pods: number;
  byVerdict: Record<string, number>;
  byMode: Record<string, number>;
  excluded: number;
  workloads: WorkloadGaps[];
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

export function summarizeFleet(timelines: readonly PodTimeline[]): FleetSummary {
  const byVerdict: Record<string, number> = {};
  const byMode: Record<string, number> = {};
  const groups = new Map<string, { w: PodTimeline['workload']; items: PodTimeline[] }>();
  let excluded = 0;
  for (const t of timelines) {
    bump(byMode, t.mode);
    if (t.excluded) excluded++;
    for (const v of t.verdicts) bump(byVerdict, v.verdict);
    const key = workloadKey(t.workload);
    const g = groups.get(key) ?? { w: t.workload, items: [] };
    g.items.push(t);
    groups.set(key, g);
  }
  const workloads = [...groups.values()].map(({ w, items }) => {
    const gaps = items.map((t) => t.gapMs).filter((v): v is number => v !== null);
    const verdicts: Record<string, number> = {};
    for (const t of items) for (const v of t.verdicts) bump(verdicts, v.verdict);
    return {
      namespace: w.namespace,
      kind: w.kind,
      name: w.name,
      pods: items.length,
      measured: gaps.length,
      minMs: gaps.length ? Math.min(...gaps) : null,
      medianMs: median(gaps),
      maxMs: gaps.length ? Math.max(...gaps) : null,
      verdicts,
    };
  });
  workloads.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return { pods: timelines.length, byVerdict, byMode, excluded, workloads };
}
