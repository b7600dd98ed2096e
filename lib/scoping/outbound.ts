/**
 * The outbound clusters istiod builds for the services a proxy sees: `outbound|PORT||FQDN` per
 * visible service port plus `outbound|PORT|SUBSET|FQDN` per subset of the DestinationRule that
 * applies. A host seen twice (two registries) keeps its first entry, like istiod. UDP ports get no
 * cluster, nor do ExternalName Services (aliases since Istio 1.21), as in istio/istio
 * pilot/pkg/networking/core/cluster.go buildOutboundClusters.
 */
import type { DestinationRule } from '../kube/types';
import { formatClusterName } from '../refs/cluster-name';
import type { VisiblePort, VisibleService } from './visibility';

export interface OutboundClusterKey {
  name: string;
  service: VisibleService;
  port: VisiblePort;
  subset?: { name: string; labels: Record<string, string>; index: number };
  destinationRule?: DestinationRule;
}

/** Resolves the DestinationRule for a visible service (client namespace already bound). */
export type DestinationRuleLookup = (svc: VisibleService) => DestinationRule | undefined;

export function outboundClusterKeys(
  visible: readonly VisibleService[],
  lookup: DestinationRuleLookup,
): OutboundClusterKey[] {
  const out: OutboundClusterKey[] = [];
  const seen = new Set<string>();
  for (const svc of visible) {
    if (svc.kind === 'Service' && svc.serviceType === 'ExternalName') continue;
    const dr = lookup(svc);
    for (const port of svc.ports) {
      if ((port.protocol ?? '').toUpperCase() === 'UDP') continue;
      const name = formatClusterName({
        direction: 'outbound',
        port: port.port,
        fqdn: svc.hostname,
      });
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({ name, service: svc, port, destinationRule: dr });
      (dr?.spec?.subsets ?? []).forEach((subset, index) => {
        out.push({
          name: formatClusterName({
            direction: 'outbound',
            port: port.port,
            subset: subset.name,
            fqdn: svc.hostname,
          }),
          service: svc,
          port,
          subset: { name: subset.name, labels: subset.labels ?? {}, index },
          destinationRule: dr,
        });
      });
    }
  }
  return out;
}

/** Outbound cluster count per hostname (ports x (1 + subsets), after de-duplication). */
export function outboundCountsByHost(keys: readonly OutboundClusterKey[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) out.set(k.service.hostname, (out.get(k.service.hostname) ?? 0) + 1);
  return out;
}
