/**
 * Per-proxy cluster lists, cached per Sidecar scope: every proxy in the same namespace under the
 * same Sidecar (or gateway), of the same Istio version and picked by the same workloadSelector
 * DestinationRules, gets the same outbound config, so it is computed once and reused until
 * services, sidecars, destination rules or service entries change (count + max resourceVersion).
 */
import type { DestinationRule, Pod } from '../../../lib/kube/types';
import {
  indexDestinationRules,
  type SimDestinationRuleIndex,
} from './istio-model/destination-rules';
import { createPushContext, type PushContext } from './istio-model/push-context';
import { convertToSidecarScope, gatewaySidecarScope, type SimSidecarScope } from './sidecar-scope';
import {
  fixedDynamicClusters,
  inboundClusters,
  outboundClusters,
  STATIC_CLUSTERS,
  type SimCluster,
} from './clusters';
import {
  isGateway,
  meshConfig,
  podNamespace,
  proxyVersion,
  versionKey,
  type MeshConfig,
  type MeshView,
} from './world';
import { objectKey } from '../../../lib/refs/object-ref';

export interface ScopeEntry {
  /** What istiod (played by sidecar-scope.ts, not lib/scoping) gives the scope's proxies. */
  scope: SimSidecarScope;
  outbound: SimCluster[];
}

export interface ProxyClusters {
  version: string;
  gateway: boolean;
  mesh: MeshConfig;
  scope: SimSidecarScope;
  staticClusters: readonly SimCluster[];
  /** The scope's outbound clusters (shared by every proxy in the scope: do not mutate). */
  outbound: readonly SimCluster[];
  /** Fixed, outbound and inbound: what dynamic_active_clusters holds. */
  dynamicClusters: SimCluster[];
}

export interface ScopeCache {
  clustersFor(pod: Pod, view: MeshView): ProxyClusters;
  /** Distinct scopes computed since the last invalidation (for tests and benchmarks). */
  size(): number;
}

export function createScopeCache(): ScopeCache {
  let key = '';
  const scopes = new Map<string, ScopeEntry>();
  let rules: SimDestinationRuleIndex | undefined;
  let push: PushContext | undefined;
  let selectorRules: readonly DestinationRule[] = [];

  function scopeFor(
    pod: Pod,
    view: MeshView,
    mesh: MeshConfig,
    gateway: boolean,
    version: string,
  ): ScopeEntry {
    const k = versionKey([
      view.services,
      view.sidecars,
      view.destinationRules,
      view.serviceEntries,
      view.virtualServices,
      view.configMaps,
    ]);
    if (k !== key || !rules || !push) {
      scopes.clear();
      key = k;
      rules = indexDestinationRules(
        view.destinationRules,
        mesh.rootNamespace,
        mesh.defaultDestinationRuleExportTo,
      );
      push = createPushContext({
        ...view,
        rootNamespace: mesh.rootNamespace,
        exportToDefaults: {
          service: mesh.defaultServiceExportTo,
          virtualService: mesh.defaultVirtualServiceExportTo,
        },
      });
      selectorRules = view.destinationRules.filter(
        (dr) => (dr.spec as { workloadSelector?: unknown }).workloadSelector !== undefined,
      );
    }
    const ns = podNamespace(pod);
    const labels = pod.metadata.labels ?? {};
    // gateways ignore Sidecars and see every service exported to their namespace
    const sidecar = gateway ? null : push.sidecarFor(ns, labels);
    const picking = selectorRules
      .filter((dr) => (dr.metadata.namespace ?? 'default') === ns && selects(dr, labels))
      .map((dr) => dr.metadata.name)
      .join(',');
    const scopeKey = gateway
      ? `gateway|${ns}|${version}`
      : `sidecar|${sidecar ? objectKey(sidecar.metadata.namespace ?? '', sidecar.metadata.name) : '-'}|${ns}|${version}|${picking}`;
    const hit = scopes.get(scopeKey);
    if (hit) return hit;
    const scope = gateway
      ? gatewaySidecarScope(push, ns)
      : convertToSidecarScope(push, sidecar ?? undefined, ns);
    const entry: ScopeEntry = {
      scope,
      outbound: outboundClusters(scope.services, rules, {
        namespace: ns,
        labels,
        version,
        gateway,
      }),
    };
    scopes.set(scopeKey, entry);
    return entry;
  }

  return {
    clustersFor(pod, view) {
      const mesh = meshConfig(view.configMaps);
      const gateway = isGateway(pod);
      const version = proxyVersion(pod);
      const scope = scopeFor(pod, view, mesh, gateway, version);
      const inbound = gateway
        ? []
        : inboundClusters(pod, view.services, version, scope.scope.sidecar);
      return {
        version,
        gateway,
        mesh,
        scope: scope.scope,
        staticClusters: STATIC_CLUSTERS,
        outbound: scope.outbound,
        dynamicClusters: [...fixedDynamicClusters(version, gateway), ...scope.outbound, ...inbound],
      };
    },
    size: () => scopes.size,
  };
}

function selects(dr: DestinationRule, labels: Readonly<Record<string, string>>): boolean {
  const ws = (dr.spec as { workloadSelector?: { matchLabels?: Record<string, string> } })
    .workloadSelector;
  return Object.entries(ws?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}
