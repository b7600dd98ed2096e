/**
 * What the Timelines analysis needs to know about pods over time: live pods, the last state of
 * deleted ones, their container/condition transitions and their Events. The SQLite history
 * store provides it (server/store/pod-records.ts), so timelines survive meshdx's restart; the
 * runtime's watch-fed cache provides it from memory in tests and benchmarks.
 */
import type { KubeEvent, Pod } from '../kube/types';
import type { Transition } from './types';

export interface DeletedPodRecord {
  pod: Pod;
  deletedAt: string;
  uncertain: boolean;
}

export interface PodRecords {
  livePods(): Pod[];
  deletedPods(): DeletedPodRecord[];
  findPod(namespace: string, name: string): { pod: Pod; deleted: DeletedPodRecord | null } | null;
  transitions(pod: Pod): Transition[];
  eventsFor(pod: Pod): KubeEvent[];
  /** Changes whenever the pod, its transitions or its events change (analysis cache key). */
  revision(pod: Pod): number;
}
