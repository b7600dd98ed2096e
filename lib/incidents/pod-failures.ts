/**
 * The failing requests that reached one pod (the pod that held the upstream IP when each was
 * sent, as recorded): what a pod's page shows, live or gone.
 */
import type { PodFailures } from '../api/inventory';
import { podKey, type PodIdentity } from '../refs/pod-ref';
import type { StoredFailure } from './failure-store';

/** Clients named on the page at most (the rest are counted). */
const MAX_CLIENTS = 20;

export function failuresHitting(
  pod: PodIdentity,
  stored: readonly StoredFailure[],
  window: { fromMs: number; toMs: number },
): Omit<PodFailures, 'hiddenNamespaces'> {
  const byState: Record<string, number> = {};
  const clients = new Set<string>();
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const f of stored) {
    const p = f.attribution.pod;
    if (!p) continue;
    // by uid where both have one: a namesake (an earlier pod of the name) is another pod
    const same =
      pod.uid && p.uid ? p.uid === pod.uid : p.namespace === pod.namespace && p.name === pod.name;
    if (!same) continue;
    count++;
    byState[f.attribution.state] = (byState[f.attribution.state] ?? 0) + 1;
    clients.add(f.source.proxy);
    const t = f.fields.time;
    if (t !== null) {
      if (first === null || t < first) first = t;
      if (last === null || t > last) last = t;
    }
  }
  const names = [...clients].sort();
  return {
    count,
    byState,
    firstAt: first === null ? null : new Date(first).toISOString(),
    lastAt: last === null ? null : new Date(last).toISOString(),
    clients: names.slice(0, MAX_CLIENTS),
    clientsTotal: names.length,
    window: {
      from: new Date(window.fromMs).toISOString(),
      to: new Date(window.toMs).toISOString(),
    },
  };
}

/** How long after a pod went its clients may still have sent to its IP (and been recorded). */
export const AFTER_GONE_MS = 60 * 60_000;

/** The window a pod's failures are counted in: its life, and the hour after it went. */
export function podFailureWindow(
  createdMs: number | null,
  goneAt: number | null,
  now: number,
): { fromMs: number; toMs: number } {
  return {
    fromMs: createdMs !== null && Number.isFinite(createdMs) ? createdMs : now - 24 * 60 * 60_000,
    toMs: goneAt === null ? now : Math.min(now, goneAt + AFTER_GONE_MS),
  };
}

/**
 * The failing requests recorded against one pod's termination: sent to it while it was
 * terminating or after it was gone (the attribution Incidents shows), in the pod's window.
 * The figure the drain verdict, the pod page and Incidents give for the pod.
 */
export interface TerminationFailures {
  count: number;
  toTerminating: number;
  toGone: number;
  /** The latest such request after the pod's deletion started (ms), null when none says. */
  lastAfterDeletionMs: number | null;
}

/** Stored failures indexed by the pod they reached, for many pods' termination figures. */
export function terminationFailureIndex(
  stored: readonly StoredFailure[],
): (pod: PodIdentity, window: { fromMs: number; toMs: number }) => TerminationFailures {
  const byUid = new Map<string, StoredFailure[]>();
  const byName = new Map<string, StoredFailure[]>();
  for (const f of stored) {
    const p = f.attribution.pod;
    const s = f.attribution.state;
    if (!p || (s !== 'terminating' && s !== 'gone')) continue;
    const push = (m: Map<string, StoredFailure[]>, k: string) => {
      const list = m.get(k) ?? [];
      list.push(f);
      m.set(k, list);
    };
    if (p.uid) push(byUid, p.uid);
    push(byName, podKey(p.namespace, p.name));
  }
  return (pod, window) => {
    const named = byName.get(podKey(pod.namespace, pod.name)) ?? [];
    // by uid where both have one (as failuresHitting): a namesake is another pod
    const mine = pod.uid
      ? [...(byUid.get(pod.uid) ?? []), ...named.filter((f) => !f.attribution.pod?.uid)]
      : named;
    const out: TerminationFailures = {
      count: 0,
      toTerminating: 0,
      toGone: 0,
      lastAfterDeletionMs: null,
    };
    for (const f of mine) {
      const t = f.fields.time;
      if (t !== null && (t < window.fromMs || t > window.toMs)) continue;
      out.count++;
      const a = f.attribution;
      let after: number | null = null;
      if (a.state === 'terminating') {
        out.toTerminating++;
        after = a.afterTerminationMs;
      } else {
        out.toGone++;
        if (a.goneAt !== null && a.deletionStartedAt !== null && a.afterTerminationMs !== null)
          after = a.goneAt - a.deletionStartedAt + a.afterTerminationMs;
      }
      if (after !== null && Number.isFinite(after))
        out.lastAfterDeletionMs = Math.max(out.lastAfterDeletionMs ?? 0, after);
    }
    return out;
  };
}
