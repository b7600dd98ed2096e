import type { ProxyFleetRow } from '../api/proxies';

/**
 * Clusters every Istio proxy carries that are not services: the bootstrap (static) clusters and
 * the catch-all dynamic ones. The :15090 gauge counts them with the service clusters, so the
 * fleet view subtracts this known set to estimate the service clusters (and says it is derived).
 */
export const BOOTSTRAP_CLUSTERS = ['prometheus_stats', 'agent', 'sds-grpc', 'xds-grpc', 'zipkin'];

/**
 * BlackHole on every proxy; Passthrough and InboundPassthrough only on sidecars: gateways have no
 * original-dst listeners, so istiod gives them no passthrough cluster (istio/istio
 * pilot/pkg/networking/core/cluster.go buildClusters).
 */
export const CATCH_ALL_CLUSTERS = ['BlackHoleCluster', 'PassthroughCluster'];
export const INBOUND_PASSTHROUGH = /^InboundPassthroughCluster(Ipv4|Ipv6)?$/;

/** True for a cluster name of the known static/control-plane set. */
export function isKnownStaticCluster(name: string): boolean {
  return (
    BOOTSTRAP_CLUSTERS.includes(name) ||
    CATCH_ALL_CLUSTERS.includes(name) ||
    INBOUND_PASSTHROUGH.test(name)
  );
}

/** How many known static/control-plane clusters a proxy of this placement carries. */
export function knownStaticCount(placement: ProxyFleetRow['placement']): number {
  const passthrough = placement === 'gateway' ? 0 : 2;
  return BOOTSTRAP_CLUSTERS.length + 1 + passthrough;
}

/** Derived service-cluster count: active minus the known static set, never below zero. */
export function serviceClustersEstimate(
  active: number | null,
  placement: ProxyFleetRow['placement'],
): number | null {
  if (active === null || !Number.isFinite(active)) return null;
  return Math.max(0, active - knownStaticCount(placement));
}
