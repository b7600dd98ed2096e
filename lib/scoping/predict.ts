/**
 * Per-proxy cluster figures: today (measured active_clusters when the proxy answered, else the
 * model), the minimum it needs (clusters of the services it calls + inbound + static), and the
 * prediction under the proposed Sidecars, by the same rules istiod (and the simulator) use:
 * visible service ports x (1 + DestinationRule subsets) + inbound + static/control-plane clusters.
 */
import type { Pod } from '../kube/types';
import type { WorkloadFacts } from './facts';
import { inboundClusterKeys } from './inbound';
import { proxyVersionOf } from './proxy';
import type { MeshModel, Scope } from './scopes';
import type { ProxyClusterCount } from './types';

/** prometheus_stats, agent, sds-grpc, xds-grpc, zipkin (bootstrap). */
export const BOOTSTRAP_CLUSTERS = 5;
/** BlackHoleCluster, PassthroughCluster, InboundPassthroughCluster(Ipv4). */
export const FIXED_SIDECAR_CLUSTERS = 3;

export interface ProxyFigures {
  pod: string;
  measuredActive: number | null;
  measuredService: number | null;
  inbound: number;
  nonService: number;
  current: number;
  measured: boolean;
  modelled: number;
  minimum: number;
  predicted: number;
  unused: number | null;
}

function sumHosts(hosts: Iterable<string>, scope: Scope): number {
  let n = 0;
  for (const h of hosts) n += scope.byHost.get(h) ?? 0;
  return n;
}

export interface ProxyScopes {
  before: Scope;
  after: Scope;
  unscoped: Scope;
}

export function proxyFigures(
  pod: Pod,
  facts: WorkloadFacts,
  scopes: ProxyScopes,
  count: ProxyClusterCount | undefined,
  model: MeshModel,
): ProxyFigures {
  const ns = pod.metadata.namespace ?? 'default';
  const active = count?.active ?? null;
  const service = active !== null ? (count?.service ?? null) : null;
  const modelInbound = inboundClusterKeys(
    pod,
    model.servicesByNamespace.get(ns) ?? [],
    proxyVersionOf(pod),
  ).length;
  const inbound = count?.inbound ?? modelInbound;
  const nonService =
    active !== null && service !== null && active >= service
      ? active - service
      : BOOTSTRAP_CLUSTERS + FIXED_SIDECAR_CLUSTERS;
  const modelled = scopes.before.outbound + inbound + nonService;
  const used = facts.usedHosts.keys();
  const carried = service !== null ? Math.max(0, service - inbound) : scopes.before.outbound;
  const usedCarried = sumHosts(facts.usedHosts.keys(), scopes.before);
  return {
    pod: pod.metadata.name,
    measuredActive: active,
    measuredService: service,
    inbound,
    nonService,
    current: active ?? modelled,
    measured: active !== null,
    modelled,
    minimum: sumHosts(used, scopes.unscoped) + inbound + nonService,
    predicted: scopes.after.outbound + inbound + nonService,
    unused: facts.observed ? Math.max(0, carried - usedCarried) : null,
  };
}

export interface FigureTotals {
  current: number;
  measured: boolean;
  modelled: number;
  minimum: number;
  predicted: number;
  unused: number | null;
}

/** Sums over proxies; `measured` only when every proxy was measured; unused null if none known. */
export function sumFigures(rows: readonly FigureTotals[]): FigureTotals {
  const known = rows.filter((r) => r.unused !== null);
  return {
    current: rows.reduce((n, r) => n + r.current, 0),
    measured: rows.length > 0 && rows.every((r) => r.measured),
    modelled: rows.reduce((n, r) => n + r.modelled, 0),
    minimum: rows.reduce((n, r) => n + r.minimum, 0),
    predicted: rows.reduce((n, r) => n + r.predicted, 0),
    unused: known.length > 0 ? known.reduce((n, r) => n + (r.unused ?? 0), 0) : null,
  };
}

/** Per-proxy average (rounded) of a sum over `n` proxies. */
export function averageFigures(total: FigureTotals, n: number): FigureTotals {
  const avg = (x: number) => (n > 0 ? Math.round(x / n) : 0);
  return {
    current: avg(total.current),
    measured: total.measured,
    modelled: avg(total.modelled),
    minimum: avg(total.minimum),
    predicted: avg(total.predicted),
    unused: total.unused === null ? null : avg(total.unused),
  };
}
