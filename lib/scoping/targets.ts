/**
 * Which proxies the Scoping gather asks, and small helpers over what they answered: the proxy's
 * start time (Envoy counters count from there), the observation window the answers cover, and
 * reason tallies for the coverage summary.
 */
import type { Pod } from '../kube/types';
import { podKey } from '../refs/pod-ref';
import { PROXY_CONTAINER } from './proxy';
import { isScopablePod } from './workloads';

export interface ScopingTarget {
  namespace: string;
  pod: string;
  /** Why the proxy cannot be asked (not running, no IP), or null. */
  notRunning: string | null;
  /** istio-proxy state.running.startedAt (epoch ms), when running. */
  startedMs: number | null;
}

function proxyStatus(pod: Pod) {
  const all = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ];
  return all.find((c) => c.name === PROXY_CONTAINER);
}

/** Scopable (sidecar, non-gateway, not finished) pods, with why some cannot be asked. */
export function scopingTargets(pods: readonly Pod[]): ScopingTarget[] {
  const out: ScopingTarget[] = [];
  for (const p of pods) {
    if (!isScopablePod(p)) continue;
    const st = proxyStatus(p);
    const started = st?.state?.running?.startedAt;
    const startedMs = started ? Date.parse(started) : NaN;
    let notRunning: string | null = null;
    if (p.metadata.deletionTimestamp) notRunning = 'pod is terminating';
    else if (!p.status?.podIP) notRunning = 'pod has no IP yet';
    else if (!st?.state?.running) notRunning = 'istio-proxy container is not running';
    out.push({
      namespace: p.metadata.namespace ?? 'default',
      pod: p.metadata.name,
      notRunning,
      startedMs: Number.isNaN(startedMs) ? null : startedMs,
    });
  }
  return out;
}

/**
 * The window the observations cover: from the time by which 90% of the observed proxies were
 * counting (a few freshly restarted pods do not shorten it for everyone) to now. Null when no
 * proxy was observed.
 */
export function observationWindow(
  startsMs: readonly number[],
  nowMs: number,
): { start: string; end: string } | null {
  const starts = startsMs.filter((s) => Number.isFinite(s) && s <= nowMs).sort((a, b) => a - b);
  if (starts.length === 0) return null;
  const idx = Math.max(0, Math.ceil(starts.length * 0.9) - 1);
  const start = starts[idx] as number;
  return { start: new Date(start).toISOString(), end: new Date(nowMs).toISOString() };
}

/** Replaces the pod's own names in a reason so equal failures tally together. */
export function genericReason(reason: string, namespace: string, pod: string): string {
  return reason.split(podKey(namespace, pod)).join('NS/POD').split(pod).join('POD');
}

export function tally(reasons: readonly string[], limit = 5): { reason: string; count: number }[] {
  const m = new Map<string, number>();
  for (const r of reasons) m.set(r, (m.get(r) ?? 0) + 1);
  return [...m]
    .map(([reason, count]) => ({ reason, count }))
    .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason))
    .slice(0, limit);
}
