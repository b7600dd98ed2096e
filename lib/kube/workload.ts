/**
 * The workload a pod belongs to: the one definition every view uses, so a CronJob's pod is the
 * same `CronJob backup` on Overview, Timelines, Findings and Incidents.
 *
 * Owners, as the controllers write them: a Deployment's pods are owned by a ReplicaSet named
 * `<deployment>-<pod-template-hash>` (the hash is also the pod's `pod-template-hash` label); a
 * CronJob's pods by a Job named `<cronjob>-<scheduled time in minutes since the epoch>` (8 or
 * more digits); StatefulSet, DaemonSet and bare Job pods by their controller; a pod without an
 * owner is its own workload. The controller owner wins over other owner references.
 */
import type { OwnerReference, Pod } from './types';

export interface WorkloadRef {
  kind: string;
  name: string;
}

/** The workload of a pod's owner (the pod's labels help find a Deployment's name). */
export function workloadOfOwner(
  owner: Pick<OwnerReference, 'kind' | 'name'> | null | undefined,
  podName: string,
  labels: Readonly<Record<string, string>> = {},
): WorkloadRef {
  if (!owner || typeof owner.name !== 'string') return { kind: 'Pod', name: podName };
  if (owner.kind === 'ReplicaSet') {
    const hash = labels['pod-template-hash'];
    if (hash && owner.name.endsWith(`-${hash}`) && owner.name.length > hash.length + 1) {
      return { kind: 'Deployment', name: owner.name.slice(0, -(hash.length + 1)) };
    }
    // Before Kubernetes 1.11 the label held a decimal hash while the name used another
    // encoding; without labels (a history row), the name's last segment is the hash.
    const m = /^(.+)-[a-z0-9]{5,10}$/.exec(owner.name);
    if (m?.[1]) return { kind: 'Deployment', name: m[1] };
    return { kind: 'ReplicaSet', name: owner.name };
  }
  if (owner.kind === 'Job') {
    const cron = /^(.+)-\d{8,}$/.exec(owner.name);
    if (cron?.[1]) return { kind: 'CronJob', name: cron[1] };
  }
  return { kind: owner.kind, name: owner.name };
}

/** The owner reference that decides the workload: the controller, else the first. */
export function controllerOf(pod: Pod): OwnerReference | undefined {
  const owners = Array.isArray(pod.metadata?.ownerReferences) ? pod.metadata.ownerReferences : [];
  return owners.find((o) => o?.controller) ?? owners[0];
}

/** The workload a pod belongs to. */
export function workloadOf(pod: Pod): WorkloadRef {
  return workloadOfOwner(controllerOf(pod), pod.metadata?.name ?? '', pod.metadata?.labels ?? {});
}
