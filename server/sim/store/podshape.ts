import type { Pod, PodSpec } from '../../../lib/kube/types';

const EMPTY_SPEC: PodSpec = Object.freeze({ containers: [] }) as PodSpec;

/**
 * A stored pod's spec, or an empty one. The HTTP create path refuses a pod without a spec, but a
 * scenario may seed one on purpose (as an old or damaged object in etcd would be), so every
 * reader in the simulator goes through here instead of trusting `pod.spec`.
 */
export function podSpec(pod: Pod): PodSpec {
  const spec = (pod as { spec?: PodSpec | null }).spec;
  if (spec === undefined || spec === null || typeof spec !== 'object') return EMPTY_SPEC;
  return Array.isArray(spec.containers) ? spec : { ...spec, containers: [] };
}

/** Whether a stored pod has a spec with containers: the mesh and the kubelet skip the others. */
export function hasPodSpec(pod: Pod): boolean {
  const spec = (pod as { spec?: PodSpec | null }).spec;
  return typeof spec === 'object' && spec !== null && Array.isArray(spec.containers);
}
