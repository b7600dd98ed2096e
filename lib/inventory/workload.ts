import type { Pod } from '../kube/types';

export interface WorkloadRef {
  kind: string;
  name: string;
}

/**
 * The workload a pod belongs to: a ReplicaSet's pods belong to its Deployment (the ReplicaSet
 * name minus the pod-template-hash), StatefulSet/DaemonSet/Job pods to their owner, bare pods
 * to themselves.
 */
export function workloadOf(pod: Pod): WorkloadRef {
  const owner =
    pod.metadata.ownerReferences?.find((o) => o.controller) ?? pod.metadata.ownerReferences?.[0];
  if (!owner) return { kind: 'Pod', name: pod.metadata.name };
  if (owner.kind === 'ReplicaSet') {
    const hash = pod.metadata.labels?.['pod-template-hash'];
    if (hash && owner.name.endsWith(`-${hash}`)) {
      return { kind: 'Deployment', name: owner.name.slice(0, -hash.length - 1) };
    }
    const m = /^(.*)-[a-z0-9]{5,10}$/.exec(owner.name);
    return m?.[1] ? { kind: 'Deployment', name: m[1] } : { kind: 'ReplicaSet', name: owner.name };
  }
  if (owner.kind === 'Job') {
    const cron = /^(.*)-\d{8,}$/.exec(owner.name);
    if (cron?.[1]) return { kind: 'CronJob', name: cron[1] };
  }
  return { kind: owner.kind, name: owner.name };
}
