/** The workload a pod belongs to: ReplicaSet -> Deployment by its pod-template-hash suffix. */
import type { Pod } from '../kube/types';
import type { Workload } from './types';

export function workloadOf(pod: Pod): Workload {
  const namespace = pod.metadata.namespace ?? 'default';
  const owners = pod.metadata.ownerReferences ?? [];
  const owner = owners.find((o) => o.controller) ?? owners[0];
  if (!owner) return { kind: 'Pod', name: pod.metadata.name, namespace };
  if (owner.kind === 'ReplicaSet') {
    const hash = pod.metadata.labels?.['pod-template-hash'];
    if (hash && owner.name.endsWith(`-${hash}`) && owner.name.length > hash.length + 1) {
      return { kind: 'Deployment', name: owner.name.slice(0, -(hash.length + 1)), namespace };
    }
    // The label is set only by the Deployment controller; before Kubernetes 1.11 the label held
    // a decimal hash while the name used another encoding: strip the name's last segment.
    const dash = owner.name.lastIndexOf('-');
    if (hash && dash > 0) return { kind: 'Deployment', name: owner.name.slice(0, dash), namespace };
  }
  return { kind: owner.kind, name: owner.name, namespace };
}
