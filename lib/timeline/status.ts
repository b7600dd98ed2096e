/** Reading container statuses and conditions: the first run of a container and its restarts. */
import type { ContainerStatus, Pod } from '../kube/types';
import { EARLY_EXIT_MS } from './instances';
import { toMs } from './time';
import type { Transition } from './types';

export function containerStatus(pod: Pod, name: string): ContainerStatus | undefined {
  const s = pod.status;
  return (
    s?.containerStatuses?.find((c) => c.name === name) ??
    s?.initContainerStatuses?.find((c) => c.name === name)
  );
}

export function conditionMs(pod: Pod, type: string): number | null {
  const c = pod.status?.conditions?.find((x) => x.type === type);
  if (!c || c.status !== 'True') return null;
  return toMs(c.lastTransitionTime);
}

export function transitionsFor(
  transitions: readonly Transition[],
  podUid: string | null,
  container: string,
  field: string,
): Transition[] {
  return transitions
    .filter((t) => t.podUid === (podUid ?? '') && t.container === container && t.field === field)
    .sort((a, b) => (toMs(a.time) ?? 0) - (toMs(b.time) ?? 0));
}

export interface FirstRun {
  startedAt: number | null;
  source: 'transition' | 'running' | 'terminated' | 'lastState' | 'none';
  /** True when the first run is not visible and startedAt is a later run (first run was earlier). */
  upperBound: boolean;
  restarts: number;
  /** The first (or earliest visible) run ended with a failure: non-zero exit or a quick exit. */
  earlyFailure: boolean;
  exitCode: number | null;
  /** When that run ended (ms), null when it has not or is not visible. */
  finishedAt: number | null;
}

export function firstRun(
  cs: ContainerStatus | undefined,
  transitions: readonly Transition[],
  podUid: string | null,
  name: string,
): FirstRun {
  const restarts = cs?.restartCount ?? 0;
  const seen = transitionsFor(transitions, podUid, name, 'startedAt')
    .map((t) => toMs(typeof t.value === 'string' ? t.value : t.time))
    .filter((v): v is number => v !== null);
  const last = cs?.lastState?.terminated;
  const cur = cs?.state?.terminated;
  const failed = (t: typeof last): boolean => {
    if (!t) return false;
    const dur = (toMs(t.finishedAt) ?? 0) - (toMs(t.startedAt) ?? 0);
    return t.exitCode !== 0 || (restarts > 0 && dur >= 0 && dur <= EARLY_EXIT_MS);
  };
  const run = restarts > 0 ? last : cur;
  const earlyFailure = failed(run);
  const exitCode = run?.exitCode ?? null;
  const base = { restarts, earlyFailure, exitCode, finishedAt: toMs(run?.finishedAt) };
  const candidates: { ms: number | null; source: FirstRun['source'] }[] =
    restarts === 0
      ? [
          { ms: toMs(cs?.state?.running?.startedAt), source: 'running' },
          { ms: toMs(cur?.startedAt), source: 'terminated' },
        ]
      : [{ ms: toMs(last?.startedAt), source: 'lastState' }];
  const fromStatus = candidates.find((c) => c.ms !== null);
  const earliestSeen = seen.length ? Math.min(...seen) : null;
  if (earliestSeen !== null && (fromStatus?.ms == null || earliestSeen <= fromStatus.ms)) {
    // All runs seen (restarts + 1 distinct starts) or the earliest is before any status time.
    const allRuns = new Set(seen).size >= restarts + 1 || restarts <= 1;
    return { ...base, startedAt: earliestSeen, source: 'transition', upperBound: !allRuns };
  }
  if (fromStatus && fromStatus.ms !== null) {
    return {
      ...base,
      startedAt: fromStatus.ms,
      source: fromStatus.source,
      upperBound: restarts > 1,
    };
  }
  if (restarts > 0) {
    // lastState lost (e.g. the kubelet restarted): the current run is a later one.
    const ms = toMs(cs?.state?.running?.startedAt) ?? toMs(cur?.startedAt);
    if (ms !== null) return { ...base, startedAt: ms, source: 'running', upperBound: true };
  }
  return { ...base, startedAt: null, source: 'none', upperBound: false };
}
