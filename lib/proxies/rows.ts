import type { ProxyFleetRow } from '../api/proxies';
import { ENVOY_STAT_NAMES } from '../metrics/envoy-stats';
import { describeImplausible } from '../plausible/checks';
import { knownStaticCount, serviceClustersEstimate } from './static-set';
import type { ProxySync } from './sync';
import type { ProxyTarget, ScrapeOutcome } from './types';
import { proxyKey } from '../refs/proxy-ref';
import { podDotted } from '../refs/pod-ref';

/** istiod names a proxy `POD.NAMESPACE` (the pod part of its node id). */
export const istiodProxyId = podDotted;

/**
 * One fleet row. A proxy that could not be read keeps null numbers and the reason (unreachable,
 * unknown or late), never 0; a figure that was read but cannot be is null too, listed with its
 * raw value.
 */
export function fleetRow(
  target: ProxyTarget,
  outcome: ScrapeOutcome | null,
  sync: ProxySync | null,
): ProxyFleetRow {
  const base: ProxyFleetRow = {
    key: proxyKey(target),
    namespace: target.namespace,
    name: target.name,
    workload: target.workload,
    workloadKind: target.workloadKind,
    placement: target.placement,
    status: 'not-running',
    reason: target.notRunning,
    activeClusters: null,
    warmingClusters: null,
    knownStaticClusters: knownStaticCount(target.placement),
    serviceClustersEstimate: null,
    listeners: null,
    memoryBytes: null,
    istioVersion: target.imageVersion,
    serverState: null,
    sidecar: target.sidecar,
    sidecarUnknown: target.sidecarUnknown ?? null,
    // the parse's record itself (istiod, state, types): no copy per row
    sync,
    scrapeErrors: 0,
    implausible: [],
    source: null,
    sampledAt: null,
  };
  if (outcome === null) return base;
  if (!outcome.ok)
    return { ...base, status: outcome.status ?? 'unreachable', reason: outcome.reason };
  const source = outcome.source ?? 'scrape';
  const s = outcome.stats;
  if (s.activeClusters === null) {
    // the proxy answered: without a (believable) count it is unknown, never unreachable
    const bad = s.implausible.find((i) => i.figure === ENVOY_STAT_NAMES.activeClusters);
    return {
      ...base,
      status: 'unknown',
      reason: bad
        ? describeImplausible(bad)
        : source === 'prometheus'
          ? 'no envoy_cluster_manager_active_clusters series in Prometheus'
          : 'the scrape has no envoy_cluster_manager_active_clusters gauge',
      scrapeErrors: outcome.errors,
      implausible: s.implausible,
      source,
      sampledAt: outcome.sampledAt ?? null,
    };
  }
  return {
    ...base,
    status: 'ok',
    reason: null,
    activeClusters: s.activeClusters,
    warmingClusters: s.warmingClusters,
    serviceClustersEstimate: serviceClustersEstimate(s.activeClusters, target.placement),
    listeners: s.listenersActive,
    memoryBytes: s.memoryAllocatedBytes,
    istioVersion: s.istioVersion ?? target.imageVersion,
    serverState: s.serverState?.name ?? null,
    scrapeErrors: outcome.errors,
    implausible: s.implausible,
    source,
    sampledAt: outcome.sampledAt ?? null,
  };
}
