/**
 * Which Services a pod is an endpoint of, and on which port, as istiod's Kubernetes registry
 * finds them (labels.Instance.Match: an empty selector selects nothing; FindPort: a named
 * targetPort is looked up in the pod's container ports).
 */
import type { Pod, Service } from '../../../../lib/kube/types';

/** labels.Instance.Match. */
export function selectorMatches(
  selector: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const keys = Object.keys(selector ?? {});
  return keys.length > 0 && keys.every((k) => labels?.[k] === selector?.[k]);
}

/** labels.Instance.SubsetOf: an empty selector takes everything. */
export function labelsSubsetOf(
  selector: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return Object.entries(selector ?? {}).every(([k, v]) => labels?.[k] === v);
}

/** The pod port a service port sends to; undefined when a named port is not on the pod. */
export function targetPortOf(
  pod: Pod | undefined,
  port: { port: number; targetPort?: number | string },
): number | undefined {
  const t = port.targetPort;
  if (t === undefined || t === '' || t === 0) return port.port;
  if (typeof t === 'number') return t;
  if (/^\d+$/.test(t)) return Number(t);
  if (!pod) return undefined;
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const hit = c.ports?.find((p) => p.name === t);
    if (hit) return hit.containerPort;
  }
  return undefined;
}

/** Services of the pod's namespace whose selector picks it. */
export function servicesOfPod(pod: Pod, services: readonly Service[]): Service[] {
  const ns = pod.metadata.namespace ?? 'default';
  return services.filter(
    (s) =>
      (s.metadata.namespace ?? 'default') === ns &&
      selectorMatches(s.spec?.selector, pod.metadata.labels),
  );
}
