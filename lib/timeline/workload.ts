/** The workload a pod belongs to (lib/kube/workload.ts), with its namespace. */
import type { Pod } from '../kube/types';
import { workloadOf as workloadRef } from '../kube/workload';
import type { Workload } from './types';

export function workloadOf(pod: Pod): Workload {
  return { ...workloadRef(pod), namespace: pod.metadata.namespace ?? 'default' };
}
