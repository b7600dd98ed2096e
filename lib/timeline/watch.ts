/**
 * Turns successive states of a pod (watch events) into Transition records. Start times come
 * from the kubelet's container states; a ready flip has no timestamp of its own, so it gets
 * the receipt time when the caller has one (live watch), else the ContainersReady/Ready
 * lastTransitionTime when that condition flipped in the same event, else bounds.
 */
import type { ContainerStatus, Pod } from '../kube/types';
import { toIso, toMs } from './time';
import type { Transition } from './types';

function statuses(pod: Pod | undefined): ContainerStatus[] {
  return [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])];
}

function condTrue(pod: Pod | undefined, type: string): string | null {
  const c = pod?.status?.conditions?.find((x) => x.type === type);
  return c && c.status === 'True' ? (c.lastTransitionTime ?? null) : null;
}

/** Latest timestamp anywhere in the pod's status (kubelet clock). */
export function latestStatusMs(pod: Pod | undefined): number | null {
  const all: (string | null | undefined)[] = [pod?.status?.startTime];
  for (const c of pod?.status?.conditions ?? []) all.push(c.lastTransitionTime);
  for (const s of statuses(pod)) {
    for (const st of [s.state, s.lastState]) {
      all.push(st?.running?.startedAt, st?.terminated?.startedAt, st?.terminated?.finishedAt);
    }
  }
  const ms = all.map((v) => toMs(v)).filter((v): v is number => v !== null);
  return ms.length ? Math.max(...ms) : null;
}

function startTimes(s: ContainerStatus): string[] {
  return [
    s.state?.running?.startedAt,
    s.state?.terminated?.startedAt,
    s.lastState?.terminated?.startedAt,
  ].filter((v): v is string => typeof v === 'string' && toMs(v) !== null);
}

/**
 * Transitions between `prev` (undefined for the first sighting) and `next`. `observedAt` is the
 * receipt time of a live watch event; omit it for offline streams.
 */
export function diffPod(prev: Pod | undefined, next: Pod, observedAt?: string): Transition[] {
  const podUid = next.metadata.uid ?? '';
  const out: Transition[] = [];
  const before = new Map(statuses(prev).map((s) => [s.name, s]));
  const readyTime = (): Pick<Transition, 'time' | 'timeSource' | 'notBefore'> => {
    if (observedAt) return { time: observedAt, timeSource: 'observed' };
    for (const type of ['ContainersReady', 'Ready']) {
      const now = condTrue(next, type);
      if (now && condTrue(prev, type) !== now) return { time: now, timeSource: 'condition' };
    }
    const lo = latestStatusMs(prev);
    const hi = Math.max(latestStatusMs(next) ?? lo ?? 0, lo ?? 0);
    const bound = toIso(lo);
    return { time: toIso(hi) ?? '', timeSource: 'bounded', ...(bound ? { notBefore: bound } : {}) };
  };
  for (const s of statuses(next)) {
    const p = before.get(s.name);
    const seen = new Set(p ? startTimes(p) : []);
    // First sighting of a container that already restarted twice: its first run is not visible.
    const starts = !p && (s.restartCount ?? 0) > 1 ? [] : startTimes(s);
    for (const t of starts) {
      if (!seen.has(t))
        out.push({
          time: t,
          podUid,
          container: s.name,
          field: 'startedAt',
          value: t,
          timeSource: 'state',
        });
    }
    if (!p) continue;
    if (Boolean(p.ready) !== Boolean(s.ready)) {
      const at = readyTime();
      if (at.time)
        out.push({ ...at, podUid, container: s.name, field: 'ready', value: Boolean(s.ready) });
    }
    if ((s.restartCount ?? 0) > (p.restartCount ?? 0)) {
      const fin = s.lastState?.terminated?.finishedAt;
      const at = observedAt ?? fin ?? toIso(latestStatusMs(next));
      if (at) {
        out.push({
          time: at,
          podUid,
          container: s.name,
          field: 'restartCount',
          value: s.restartCount,
          timeSource: observedAt ? 'observed' : fin ? 'state' : 'bounded',
        });
      }
    }
  }
  return out;
}
