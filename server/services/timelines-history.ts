/**
 * What the Timelines use case needs to know about pods over time. Today the watch-fed
 * ClusterCache (server/cache) provides it from memory; the SQLite history store plugs in here
 * (an adapter from HistoryStore's snapshots, transitions and events to this interface) so that
 * timelines survive meshdx's restart.
 */
import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { Transition } from '../../lib/timeline/types';

export interface DeletedPodRecord {
  pod: Pod;
  deletedAt: string;
  uncertain: boolean;
}

export interface TimelineHistory {
  livePods(): Pod[];
  deletedPods(): DeletedPodRecord[];
  findPod(namespace: string, name: string): { pod: Pod; deleted: DeletedPodRecord | null } | null;
  transitions(pod: Pod): Transition[];
  eventsFor(pod: Pod): KubeEvent[];
  /** Changes whenever the pod, its transitions or its events change (analysis cache key). */
  revision(pod: Pod): number;
}
