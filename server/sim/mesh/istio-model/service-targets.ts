/**
 * The Services a pod serves, as istiod's Kubernetes registry finds a proxy's ServiceTargets
 * (istio/istio pilot/pkg/serviceregistry/kube/controller: getPodServices,
 * getProxyServiceTargetsByPod, FindPort), and the label matching it uses (pkg/config/labels):
 *
 * - a Service of the pod's namespace serves the pod when its selector matches the pod's labels
 *   (labels.Instance.Match: an empty or missing selector matches nothing);
 * - per Service port, the target port: a number as written (unset: the port itself, as the API
 *   server defaults it), a name looked up among the ports of the pod's containers with the same
 *   protocol (TCP when unset on either side); a name no container port has gives no target;
 * - within one Service, ports sending to the same target port with the same Istio protocol
 *   (./protocol.ts) give one target.
 */
import type { Pod, Service, ServicePort } from '../../../../lib/kube/types';
import { portProtocol } from './protocol';

/** labels.Instance.SubsetOf: every label of the selector, with its value (empty: everything). */
export function labelsSubsetOf(
  selector: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const [k, v] of Object.entries(selector ?? {})) if (labels?.[k] !== v) return false;
  return true;
}

/** labels.Instance.Match: SubsetOf, but an empty selector selects nothing. */
export function selectorMatches(
  selector: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  return Object.keys(selector ?? {}).length > 0 && labelsSubsetOf(selector, labels);
}

const protocolOf = (p: { protocol?: string }) => (p.protocol ?? 'TCP').toUpperCase();

/**
 * FindPort: the pod port a Service port sends to, undefined when its named target is on no
 * container of the pod (or there is no pod to look in).
 */
export function findPort(
  pod: Pod | undefined,
  port: { port: number; targetPort?: number | string; protocol?: string },
): number | undefined {
  const target = port.targetPort;
  if (target === undefined || target === '' || target === 0) return port.port;
  if (typeof target === 'number') return target;
  // an IntOrString written as a string of digits is read as the number
  if (/^\d+$/.test(target)) return Number(target);
  const containers = pod?.spec?.containers;
  if (!Array.isArray(containers)) return undefined;
  const wanted = protocolOf(port);
  for (const c of containers) {
    for (const p of c.ports ?? []) {
      if (p.name === target && protocolOf(p) === wanted) return p.containerPort;
    }
  }
  return undefined;
}

/** One ServiceTarget: a Service port of the pod and the pod port it reaches. */
export interface ServiceTarget {
  service: Service;
  port: ServicePort;
  targetPort: number;
}

/** getPodServices: the Services of the pod's namespace whose selector matches it. */
export function podServices(pod: Pod, services: readonly Service[]): Service[] {
  const ns = pod.metadata.namespace ?? 'default';
  return services.filter(
    (s) =>
      (s.metadata.namespace ?? 'default') === ns &&
      selectorMatches(s.spec?.selector, pod.metadata.labels),
  );
}

/** The pod's ServiceTargets, Service by Service in the order given. */
export function proxyServiceTargets(pod: Pod, services: readonly Service[]): ServiceTarget[] {
  const out: ServiceTarget[] = [];
  for (const service of podServices(pod, services)) {
    const seen = new Set<string>();
    for (const port of service.spec?.ports ?? []) {
      const targetPort = findPort(pod, port);
      if (targetPort === undefined) continue;
      // model.Port{Port: target, Protocol: the Service port's Istio protocol}
      const key = `${targetPort}/${portProtocol(port, 'Kubernetes')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ service, port, targetPort });
    }
  }
  return out;
}
