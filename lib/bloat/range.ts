/**
 * Cluster counts over a window, from Prometheus range answers: the step sized to the window
 * (a bounded number of points), one line per namespace and per workload of per-proxy figures
 * (average and largest count over the proxies that reported at each step, and how many did).
 * A step where no proxy reported is a gap (null), never 0.
 */

import { check, COUNT, type Implausible } from '../plausible/checks';

/** At most this many points per line. */
export const MAX_POINTS = 240;

/** The step (whole seconds, at least `minStepS`) that covers [from, to] in at most maxPoints. */
export function rangeStep(
  fromMs: number,
  toMs: number,
  maxPoints = MAX_POINTS,
  minStepS = 1,
): number {
  if (!(toMs > fromMs)) throw new Error(`window end ${toMs} is not after its start ${fromMs}`);
  return Math.max(minStepS, Math.ceil((toMs - fromMs) / 1000 / Math.max(1, maxPoints - 1)));
}

/** A label value inside a PromQL string literal. */
export function promString(v: string): string {
  return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** Every proxy's active clusters in a namespace, one series per pod (the fleet's labels). */
export function namespaceClustersQuery(namespace: string): string {
  return `max by (namespace, pod) (envoy_cluster_manager_active_clusters{namespace=${promString(namespace)}})`;
}

export interface PodSeries {
  pod: string;
  /** [epoch ms, value] */
  samples: readonly (readonly [number, number])[];
}

export interface BloatPoint {
  /** epoch ms */
  t: number;
  /** Proxies with a sample at this step. */
  proxies: number;
  /** Average active clusters per proxy; null when no proxy reported. */
  avg: number | null;
  max: number | null;
}

export interface BloatLine {
  /** The namespace's name, or the workload's. */
  name: string;
  points: BloatPoint[];
  /** Pods whose series fed it. */
  pods: number;
}

/** The steps of a range answer: from, from + step, ... up to to. */
export function steps(fromMs: number, toMs: number, stepS: number): number[] {
  const out: number[] = [];
  for (let t = fromMs; t <= toMs; t += stepS * 1000) out.push(t);
  return out;
}

/** Samples that no cluster count can be: counted, the first few kept with what was read. */
export interface ImplausibleSamples {
  count: number;
  examples: Implausible[];
}
const MAX_EXAMPLES = 3;

const CLUSTERS = 'envoy_cluster_manager_active_clusters';

/** Every pod's samples on the grid that no cluster count can be, counted once. */
function implausibleOf(
  series: readonly PodSeries[],
  grid: ReadonlySet<number>,
): ImplausibleSamples {
  const bad: ImplausibleSamples = { count: 0, examples: [] };
  for (const s of series)
    for (const [t, v] of s.samples) {
      if (!grid.has(t)) continue;
      const c = check(`${CLUSTERS}{pod="${s.pod}"}`, v, COUNT);
      if (c.ok) continue;
      bad.count++;
      if (bad.examples.length < MAX_EXAMPLES) bad.examples.push(c.implausible);
    }
  return bad;
}

function lineOf(name: string, series: readonly PodSeries[], at: readonly number[]): BloatLine {
  const sum = new Float64Array(at.length);
  const max = new Float64Array(at.length).fill(-Infinity);
  const n = new Uint32Array(at.length);
  const index = new Map(at.map((t, i) => [t, i]));
  for (const s of series) {
    for (const [t, v] of s.samples) {
      const i = index.get(t);
      if (i === undefined) continue;
      // a count that cannot be is not averaged in (the step counts one proxy fewer); it is
      // counted by implausibleOf
      if (!check(CLUSTERS, v, COUNT).ok) continue;
      sum[i] = (sum[i] ?? 0) + v;
      max[i] = Math.max(max[i] ?? -Infinity, v);
      n[i] = (n[i] ?? 0) + 1;
    }
  }
  return {
    name,
    pods: series.length,
    points: at.map((t, i) => {
      const c = n[i] ?? 0;
      return {
        t,
        proxies: c,
        avg: c > 0 ? Math.round(((sum[i] ?? 0) / c) * 10) / 10 : null,
        max: c > 0 ? (max[i] ?? null) : null,
      };
    }),
  };
}

export interface FoldedBloat {
  /** The namespace's sidecars: the proxies its Sidecar resources scope. */
  namespace: BloatLine;
  workloads: BloatLine[];
  /** Pods whose workload could not be told (not in the inventory): counted in the namespace only. */
  unattributedPods: number;
  /**
   * Gateway and waypoint pods: no Sidecar scopes them, so they are left out of the namespace
   * line (which Scoping's per-sidecar figures are set beside) and shown as their workloads.
   */
  unscopablePods: number;
  /** Samples off the step grid (ignored). */
  offGrid: number;
  /** Samples on the grid whose value no cluster count can be (left out of every line). */
  implausible: ImplausibleSamples;
}

/**
 * One line for the namespace's sidecars and one per workload. `workloadOf` names a pod's
 * workload (null when the inventory does not know the pod: it is then counted in the namespace
 * line only); `unscopable` says a pod is a gateway or waypoint (left out of the namespace line).
 */
export function foldBloat(
  namespace: string,
  series: readonly PodSeries[],
  workloadOf: (pod: string) => string | null,
  at: readonly number[],
  unscopable: (pod: string) => boolean = () => false,
): FoldedBloat {
  const grid = new Set(at);
  let offGrid = 0;
  for (const s of series) for (const [t] of s.samples) if (!grid.has(t)) offGrid++;
  const byWorkload = new Map<string, PodSeries[]>();
  let unattributedPods = 0;
  for (const s of series) {
    const w = workloadOf(s.pod);
    if (w === null) {
      unattributedPods++;
      continue;
    }
    const list = byWorkload.get(w) ?? [];
    list.push(s);
    byWorkload.set(w, list);
  }
  const sidecars = series.filter((s) => !unscopable(s.pod));
  return {
    namespace: lineOf(namespace, sidecars, at),
    workloads: [...byWorkload]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([w, s]) => lineOf(w, s, at)),
    unattributedPods,
    unscopablePods: series.length - sidecars.length,
    offGrid,
    implausible: implausibleOf(series, grid),
  };
}
