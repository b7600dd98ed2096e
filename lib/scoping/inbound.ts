/**
 * Inbound clusters of a sidecar: one per port of the services that select the pod,
 * `inbound|TARGETPORT||` since Istio 1.10 (de-duplicated by target port), before that
 * `inbound|PORT|PORTNAME|FQDN`. Gateways have none.
 */
import type { Pod, Service, ServicePort } from '../kube/types';
import { formatClusterName } from '../refs/cluster-name';
import { serviceFqdn } from '../refs/service-host';
import { compareVersions } from './proxy';
import { labelsMatch } from './visibility';

/** Resolve a service targetPort (number or container port name) against a pod; default: the port. */
export function targetPortOf(
  pod: Pod | undefined,
  port: { port: number; targetPort?: number | string },
): number | undefined {
  const t = port.targetPort;
  if (t === undefined || t === '') return port.port;
  if (typeof t === 'number') return t;
  if (/^\d+$/.test(t)) return Number(t);
  if (!pod) return undefined;
  for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    const hit = c.ports?.find((p) => p.name === t);
    if (hit) return hit.containerPort;
  }
  return undefined;
}

/** Services whose selector picks the pod (same namespace). */
export function servicesOfPod(pod: Pod, services: readonly Service[]): Service[] {
  const ns = pod.metadata.namespace ?? 'default';
  return services.filter(
    (s) =>
      (s.metadata.namespace ?? 'default') === ns &&
      labelsMatch(s.spec?.selector, pod.metadata.labels),
  );
}

export interface InboundClusterKey {
  name: string;
  service: Service;
  port: ServicePort;
  targetPort: number;
  fqdn: string;
  modern: boolean;
}

export function inboundClusterKeys(
  pod: Pod,
  services: readonly Service[],
  version: string,
): InboundClusterKey[] {
  const modern = compareVersions(version, '1.10') >= 0;
  const out: InboundClusterKey[] = [];
  const seen = new Set<string>();
  for (const svc of servicesOfPod(pod, services)) {
    const ns = svc.metadata.namespace ?? 'default';
    const fqdn = serviceFqdn(svc.metadata.name, ns);
    for (const p of svc.spec?.ports ?? []) {
      const target = targetPortOf(pod, p);
      if (target === undefined) continue;
      const name = modern
        ? formatClusterName({ direction: 'inbound', port: target })
        : formatClusterName({ direction: 'inbound', port: p.port, subset: p.name, fqdn });
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({ name, service: svc, port: p, targetPort: target, fqdn, modern });
    }
  }
  return out;
}
