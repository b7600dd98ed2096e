/**
 * The Events table of `kubectl describe pod`, into Kubernetes Events with times where the paste
 * allows them.
 *
 * FIELD NOTES (kubernetes/kubectl pkg/describe DescribeEvents, pkg/util/duration HumanDuration):
 * - Columns `Type Reason Age From Message`. Age is relative to when describe ran, which
 *   describe does not print: `12s` (under 2 minutes), `3m2s` (under 10), `59m`, `2h5m`, `5h`,
 *   `3d`... so its resolution is the smallest unit shown. `<invalid>` is a time in the future
 *   of the client's clock. A repeated event reads `LAST (xN over FIRST)`.
 * - `From` is `kubelet` (newer) or `kubelet, NODE` (older); a message names the container for
 *   Pulled/Created/Started/Killing ("Started container istio-proxy"), not for probe failures.
 * - The time describe ran is placed by an anchor: a `Started container C` event seen once, of a
 *   container whose Started time (absolute, to the second) the paste shows. Every other event is
 *   then that time minus its Age, give or take both resolutions. Without an anchor no event has
 *   a time.
 */
import type { KubeEvent } from '../kube/types';

export interface DescribeEventRow {
  line: number;
  type: string;
  reason: string;
  /** Seconds before describe ran, and the resolution of that figure (s). */
  lastAge: { s: number; res: number } | null;
  firstAge: { s: number; res: number } | null;
  count: number;
  from: string;
  message: string;
}

const UNITS: Record<string, number> = { y: 365 * 86400, d: 86400, h: 3600, m: 60, s: 1 };

/** `3m2s` -> {s: 182, res: 1}; `59m` -> {s: 3540, res: 60}; `<invalid>` and others -> null. */
export function parseAge(text: string): { s: number; res: number } | null {
  if (!/^(?:\d+[ydhms])+$/.test(text)) return null;
  let s = 0;
  let res = Infinity;
  for (const m of text.matchAll(/(\d+)([ydhms])/g)) {
    const unit = UNITS[m[2] as string] as number;
    s += Number(m[1]) * unit;
    res = Math.min(res, unit);
  }
  return { s, res };
}

const ROW =
  /^\s*(Normal|Warning)\s+(\S+)\s+(<invalid>|<unknown>|\S+)(?: \(x(\d+) over (\S+)\))?\s+(.*?)(?:\s{2,}|\t)(.*)$/;

/** One row of the Events table, or null when the line is not one. */
export function parseEventRow(text: string, line: number): DescribeEventRow | null {
  const m = ROW.exec(text);
  if (!m) return null;
  const count = m[4] ? Number(m[4]) : 1;
  const last = parseAge(m[3] as string);
  return {
    line,
    type: m[1] as string,
    reason: m[2] as string,
    lastAge: last,
    firstAge: m[5] ? parseAge(m[5]) : last,
    count,
    from: (m[6] as string).trim(),
    message: (m[7] as string).trim(),
  };
}

/** The container a message names (`Started container istio-proxy`), or null. */
export function messageContainer(message: string): string | null {
  const m = /^(?:Created|Started|Stopping|Killing) container (\S+)/.exec(message);
  return m ? (m[1] as string).replace(/[.,]$/, '') : null;
}

export interface DescribeClock {
  /** When describe ran (ms), and how far off that may be (ms). */
  at: number;
  errorMs: number;
  /** The event and container start it was placed by. */
  by: string;
}

/** Places describe's run in time from containers' Started times and their Started events. */
export function anchorClock(
  rows: readonly DescribeEventRow[],
  started: ReadonlyMap<string, { at: number; restarts: number }>,
): DescribeClock | null {
  let best: DescribeClock | null = null;
  for (const r of rows) {
    if (r.reason !== 'Started' || r.count !== 1 || !r.lastAge) continue;
    const c = messageContainer(r.message);
    const s = c ? started.get(c) : undefined;
    // a restarted container's Started time is its latest run, its first Started event older
    if (!c || !s || s.restarts !== 0) continue;
    const clock = {
      at: s.at + r.lastAge.s * 1000,
      errorMs: r.lastAge.res * 1000,
      by: `"${r.message}" ${r.lastAge.s}s before describe ran, ${c} Started at ${new Date(s.at).toISOString()}`,
    };
    if (!best || clock.errorMs < best.errorMs) best = clock;
  }
  return best;
}

/**
 * Kubernetes Events for the rows, timed from the clock when there is one (null times
 * otherwise). The container is set from the message, or for a probe failure on the proxy's
 * health ports (15020, 15021) to istio-proxy.
 */
export function toKubeEvents(
  rows: readonly DescribeEventRow[],
  pod: { name: string; namespace: string; initContainers: ReadonlySet<string> },
  clock: DescribeClock | null,
): KubeEvent[] {
  return rows.map((r, i) => {
    let container = messageContainer(r.message);
    if (!container && r.reason === 'Unhealthy' && /:1502[01]\/healthz\/ready/.test(r.message))
      container = 'istio-proxy';
    const field = container
      ? `spec.${pod.initContainers.has(container) ? 'initContainers' : 'containers'}{${container}}`
      : undefined;
    const at = (age: { s: number } | null) =>
      clock && age ? new Date(clock.at - age.s * 1000).toISOString() : undefined;
    const [component, host] = r.from.split(/,\s*/);
    return {
      metadata: { name: `${pod.name}.describe-${i + 1}`, namespace: pod.namespace },
      involvedObject: {
        kind: 'Pod',
        name: pod.name,
        namespace: pod.namespace,
        ...(field ? { fieldPath: field } : {}),
      },
      reason: r.reason,
      message: r.message,
      type: r.type,
      count: r.count,
      source: { component: component ?? r.from, ...(host ? { host } : {}) },
      firstTimestamp: at(r.firstAge),
      lastTimestamp: at(r.lastAge),
    };
  });
}
