/**
 * Plausibility at the door: every number read from a proxy, istiod, Prometheus or the API server
 * is checked against what can exist before it is used. A figure that fails is unknown, with the
 * raw value kept so the view can show what was read and why it was not believed.
 */

/** A figure that was read and not believed: which, what was read, why it cannot be. */
export interface Implausible {
  /** The figure as its source names it (`envoy_cluster_manager_active_clusters`). */
  figure: string;
  /** What was read, as text (`-5`, `1e+308`, `NaN`, `Infinity`). */
  raw: string;
  /** Why it cannot be (`a count is a non-negative integer`). */
  reason: string;
}

export type Checked = { ok: true; value: number } | { ok: false; implausible: Implausible };

/** What each kind of figure can be. */
export interface Bounds {
  /** Whole numbers only (counts). */
  integer: boolean;
  min: number;
  max: number;
  /** The kind of figure, as the reason names it. */
  noun: string;
  /** How the bounds read in a reason (`0 to 1 TiB`). */
  range: string;
}

/**
 * Counts of things a process holds (clusters, listeners, workloads, requests per cluster): an
 * Envoy with ten million clusters would need more memory than a node has (each costs kilobytes).
 */
export const COUNT: Bounds = {
  integer: true,
  min: 0,
  max: 10_000_000,
  noun: 'a count',
  range: 'a whole number from 0 to 10,000,000',
};

/** Counters that grow with traffic (requests, connections since start): larger, still whole. */
export const COUNTER: Bounds = {
  integer: true,
  min: 0,
  max: Number.MAX_SAFE_INTEGER,
  noun: 'a counter',
  range: `a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`,
};

/**
 * A request count as Prometheus answers it (a counter's value, a sum of them, an `increase`):
 * never negative, finite, within a counter's range; fractional when `increase` extrapolates.
 */
export const REQUESTS: Bounds = {
  integer: false,
  min: 0,
  max: Number.MAX_SAFE_INTEGER,
  noun: 'a request count',
  range: `a number from 0 to ${Number.MAX_SAFE_INTEGER}`,
};

/** Memory of one process: 1 TiB is beyond any node a proxy runs on. */
export const MEMORY_BYTES: Bounds = {
  integer: true,
  min: 0,
  max: 2 ** 40,
  noun: 'a memory size',
  range: 'whole bytes from 0 to 1 TiB',
};

/** A duration in milliseconds (start-up times, push times): at most 30 days. */
export const DURATION_MS: Bounds = {
  integer: false,
  min: 0,
  max: 30 * 24 * 3600 * 1000,
  noun: 'a duration',
  range: 'from 0 to 30 days',
};

/** Bytes of a payload or config (push sizes): at most 16 GiB. */
export const SIZE_BYTES: Bounds = {
  integer: false,
  min: 0,
  max: 16 * 2 ** 30,
  noun: 'a size',
  range: 'from 0 to 16 GiB',
};

/** A histogram's or summary's `_sum` (of durations, of sizes): never negative, always finite. */
export const SUM: Bounds = {
  integer: false,
  min: 0,
  max: Number.MAX_VALUE,
  noun: 'a sum of observations',
  range: 'a finite number from 0',
};

/** A number as read, as text: `-5`, `1e+308`, `NaN`, `Infinity`. */
export function rawText(v: number): string {
  return String(v);
}

/** Whether `v` can be a figure of this kind; when not, why (naming the figure and the raw value). */
export function check(figure: string, v: number, b: Bounds): Checked {
  const fail = (why: string): Checked => ({
    ok: false,
    implausible: { figure, raw: rawText(v), reason: `${b.noun} is ${why}` },
  });
  if (typeof v !== 'number' || Number.isNaN(v)) return fail(`a number, not ${String(v)}`);
  if (!Number.isFinite(v)) return fail(`finite (${b.range})`);
  if (v < b.min) return fail(`never below ${b.min} (${b.range})`);
  if (v > b.max) return fail(`never above ${b.max.toLocaleString('en-US')} (${b.range})`);
  if (b.integer && !Number.isInteger(v)) return fail(`a whole number (${b.range})`);
  return { ok: true, value: v };
}

/**
 * Checks a figure that may be absent: null stays null (not read), a plausible value is kept, an
 * implausible one becomes null and is noted in `into`.
 */
export function checked(
  figure: string,
  v: number | null,
  b: Bounds,
  into: Implausible[],
): number | null {
  if (v === null) return null;
  const c = check(figure, v, b);
  if (c.ok) return c.value;
  into.push(c.implausible);
  return null;
}

/** One line for a view: `envoy_cluster_manager_active_clusters read -5: a count is never below 0 (…)`. */
export function describeImplausible(i: Implausible): string {
  return `implausible ${i.figure} ${i.raw}: ${i.reason}`;
}
