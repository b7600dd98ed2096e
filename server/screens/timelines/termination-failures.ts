/**
 * The failing requests recorded against each pod's termination, as Timelines and a pod's view
 * give them: from the failure store Incidents and the pod page read.
 */
import { podFailureWindow, terminationFailureIndex } from '../../../lib/incidents/pod-failures';
import type { Pod } from '../../../lib/kube/types';
import type { FailuresOf } from '../../../lib/timeline/analysis-cache';
import type { DeletedPodRecord } from '../../../lib/timeline/pod-history';
import type { HistoryStore } from '../../store/history-store';

/** The states of a record sent to a pod's termination (terminationFailureIndex counts them). */
const TERMINATION_STATES = ['terminating', 'gone'] as const;

/** A pod's identity and the window its page asks the store about. */
function podWindow(pod: Pod, deleted: DeletedPodRecord | null, now: number) {
  const created = Date.parse(pod.metadata.creationTimestamp ?? '');
  const gone = deleted ? Date.parse(deleted.deletedAt) : null;
  return {
    ref: {
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name,
      uid: pod.metadata.uid ?? null,
    },
    window: podFailureWindow(
      Number.isFinite(created) ? created : null,
      gone !== null && Number.isFinite(gone) ? gone : null,
      now,
    ),
  };
}

/**
 * The failing requests recorded against each pod's termination, from the failure store that
 * Incidents and the pod page read, in the pod page's window: one figure for one pod. The fleet
 * reads the records sent to terminating or gone pods once (the store's state index); one pod's
 * view asks the store for that pod's alone (its pod indexes), whatever else the store holds.
 */
export function failuresOfStore(
  store: HistoryStore,
  now: number,
): { of: FailuresOf; version: string } {
  const stored = store.failures.inWindow({ fromMs: 0, toMs: now, states: TERMINATION_STATES });
  const index = terminationFailureIndex(stored);
  const last = stored.reduce((m, f) => Math.max(m, f.fields.time ?? 0), 0);
  return {
    version: `${stored.length}@${last}`,
    of: (pod, deleted) => {
      const { ref, window } = podWindow(pod, deleted, now);
      return index(ref, window);
    },
  };
}

/** One pod's termination failures, read for it alone when its view asks. */
export function podFailuresOfStore(store: HistoryStore, now: number): FailuresOf {
  return (pod, deleted) => {
    const { ref, window } = podWindow(pod, deleted, now);
    const rows = store.failures.inWindow({ ...window, pod: ref, states: TERMINATION_STATES });
    return terminationFailureIndex(rows)(ref, window);
  };
}
