/**
 * A workload reference: the one module that says which workload a pod belongs to and formats
 * and parses every form of a workload's identity.
 *
 * - `ns/Kind/name`: the key of maps and sets of workloads (workloadKey).
 * - `ns/name`: where a view knows workloads by name only (Prometheus' `workload` label, the
 *   Scoping table) (workloadNameKey).
 * - `Kind ns/name`: Istio's form (istioctl, analyzer messages), the text shown to users
 *   (workloadText).
 * - `kind/name`: kubectl's form (`kubectl rollout restart deployment/web`) (kubectlRef).
 *
 * Owners, as the controllers write them: a Deployment's pods are owned by a ReplicaSet named
 * `<deployment>-<pod-template-hash>` (the hash is also the pod's `pod-template-hash` label); a
 * CronJob's pods by a Job named `<cronjob>-<scheduled time in minutes since the epoch>` (8 or
 * more digits); StatefulSet, DaemonSet and bare Job pods by their controller; a pod without an
 * owner is its own workload (kind `Pod`). The controller owner wins over other owner references.
 */
import type { OwnerReference, Pod } from '../kube/types';
import { RefError, nameProblem, namespaceProblem } from './ref-error';

export interface WorkloadRef {
  readonly namespace: string;
  readonly kind: string;
  readonly name: string;
}

const EXPECTED = 'workload reference';
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/** `ns/Kind/name`. */
export function workloadKey(ref: WorkloadRef): string {
  return ref.namespace + '/' + ref.kind + '/' + ref.name;
}

/** `ns/name`, for views that know a workload by its name only. */
export function workloadNameKey(namespace: string, name: string): string {
  return namespace + '/' + name;
}

/** `Kind ns/name`, Istio's form. */
export function workloadText(ref: WorkloadRef): string {
  return ref.kind + ' ' + workloadNameKey(ref.namespace, ref.name);
}

/** `kind/name` (lower-case kind), kubectl's form. */
export function kubectlRef(ref: Pick<WorkloadRef, 'kind' | 'name'>): string {
  return ref.kind.toLowerCase() + '/' + ref.name;
}

/** `Kind/name` without the namespace, where the namespace is shown beside it. */
export function kindName(ref: Pick<WorkloadRef, 'kind' | 'name'>): string {
  return ref.kind + '/' + ref.name;
}

export function sameWorkload(a: WorkloadRef, b: WorkloadRef): boolean {
  return a.namespace === b.namespace && a.kind === b.kind && a.name === b.name;
}

function checked(input: string, namespace: string, kind: string, name: string): WorkloadRef {
  const why =
    namespaceProblem(namespace) ??
    (KIND.test(kind) ? null : `kind ${JSON.stringify(kind)} is not a Kubernetes kind`) ??
    nameProblem(name);
  if (why) throw new RefError(input, EXPECTED, why);
  return { namespace, kind, name };
}

/** Reads `ns/Kind/name`; throws a RefError naming the problem. */
export function parseWorkloadKey(text: string): WorkloadRef {
  const parts = text.split('/');
  if (parts.length !== 3)
    throw new RefError(
      text,
      EXPECTED,
      `expected NAMESPACE/KIND/NAME, found ${parts.length} part(s)`,
    );
  const [namespace = '', kind = '', name = ''] = parts;
  return checked(text, namespace, kind, name);
}

/** Reads `Kind ns/name` (Istio's form); throws a RefError naming the problem. */
export function parseWorkloadText(text: string): WorkloadRef {
  const t = text.trim();
  const space = t.indexOf(' ');
  if (space < 0)
    throw new RefError(text, EXPECTED, 'expected KIND NAMESPACE/NAME, there is no space');
  const rest = t.slice(space + 1).trim();
  const slash = rest.indexOf('/');
  if (slash < 0 || rest.indexOf('/', slash + 1) >= 0)
    throw new RefError(text, EXPECTED, 'expected KIND NAMESPACE/NAME with exactly one "/"');
  return checked(text, rest.slice(0, slash), t.slice(0, space), rest.slice(slash + 1));
}

/** Reads either `Kind ns/name` or `ns/Kind/name`; throws a RefError naming the problem. */
export function parseWorkloadRef(text: string): WorkloadRef {
  return text.trim().includes(' ') ? parseWorkloadText(text) : parseWorkloadKey(text.trim());
}

/** The workload of a pod's owner (the pod's labels help find a Deployment's name). */
export function workloadOfOwner(
  owner: Pick<OwnerReference, 'kind' | 'name'> | null | undefined,
  pod: { namespace: string; name: string; labels?: Readonly<Record<string, string>> },
): WorkloadRef {
  const { namespace } = pod;
  if (!owner || typeof owner.name !== 'string') return { namespace, kind: 'Pod', name: pod.name };
  if (owner.kind === 'ReplicaSet') {
    const hash = pod.labels?.['pod-template-hash'];
    if (hash && owner.name.endsWith(`-${hash}`) && owner.name.length > hash.length + 1) {
      return { namespace, kind: 'Deployment', name: owner.name.slice(0, -(hash.length + 1)) };
    }
    // Before Kubernetes 1.11 the label held a decimal hash while the name used another
    // encoding; without labels (a history row), the name's last segment is the hash.
    const m = /^(.+)-[a-z0-9]{5,10}$/.exec(owner.name);
    if (m?.[1]) return { namespace, kind: 'Deployment', name: m[1] };
    return { namespace, kind: 'ReplicaSet', name: owner.name };
  }
  if (owner.kind === 'Job') {
    const cron = /^(.+)-\d{8,}$/.exec(owner.name);
    if (cron?.[1]) return { namespace, kind: 'CronJob', name: cron[1] };
  }
  return { namespace, kind: owner.kind, name: owner.name };
}

/** The owner reference that decides the workload: the controller, else the first. */
export function controllerOf(pod: Pod): OwnerReference | undefined {
  const owners = Array.isArray(pod.metadata?.ownerReferences) ? pod.metadata.ownerReferences : [];
  return owners.find((o) => o?.controller) ?? owners[0];
}

/** The workload a pod belongs to (a pod without namespace is in `default`). */
export function workloadOf(pod: Pod): WorkloadRef {
  return workloadOfOwner(controllerOf(pod), {
    namespace: pod.metadata?.namespace ?? 'default',
    name: pod.metadata?.name ?? '',
    labels: pod.metadata?.labels ?? {},
  });
}
