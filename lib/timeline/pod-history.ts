/**
 * "What happened to this pod": the one interface every view reads a pod's past through. Live
 * pods come from the cluster cache (the watch's current objects); pods that were, their
 * container and condition transitions and their Events come from the runtime's history store
 * (server/store/pod-history.ts), the only record of them, so a pod's history survives the
 * pod's deletion and meshdx's restart. A deleted pod is found by name as a live one is: a page
 * for it answers from the store.
 */
import type { KubeEvent, Pod } from '../kube/types';
import type { Transition } from './types';

/** The last state meshdx saw of a deleted pod, and when it saw it go. */
export interface DeletedPodRecord {
  pod: Pod;
  /** When the deletion was seen (RFC 3339). */
  deletedAt: string;
  /** The pod vanished while meshdx was not watching: deletedAt is only an upper bound. */
  uncertain: boolean;
}

export interface PodHistory {
  livePods(): Pod[];
  deletedPods(): DeletedPodRecord[];
  /** The live pod of that name, else the most recently deleted one; null if never seen. */
  findPod(namespace: string, name: string): { pod: Pod; deleted: DeletedPodRecord | null } | null;
  /**
   * The pod of that name with this uid: the live one, or an earlier pod of the name (replaced by
   * a namesake, a StatefulSet's pod say) as the history kept it; null when neither has it.
   */
  findIncarnation(
    namespace: string,
    name: string,
    uid: string,
  ): { pod: Pod; deleted: DeletedPodRecord | null } | null;
  transitions(pod: Pod): Transition[];
  eventsFor(pod: Pod): KubeEvent[];
  /** Changes whenever the pod, its transitions or its events change (analysis cache key). */
  revision(pod: Pod): number;
}
