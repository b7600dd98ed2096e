/**
 * Per-proxy cluster lists, cached per Sidecar scope: every proxy in the same namespace under the
 * same Sidecar (or gateway) gets the same outbound config, so it is computed once and reused until
 * services, sidecars, destination rules or service entries change (count + max resourceVersion).
 */
import type { Pod } from '../../../lib/kube/types';
import { selectSidecar, visibleServices, type Visibility } from '../../../lib/scoping/visibility';
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

export interface ScopeEntry {
  visibility: Visibility;
  outbound: SimCluster[];
}

export interface ProxyClusters {
  version: string;
  gateway: boolean;
  mesh: MeshConfig;
  visibility: Visibility;
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

  function scopeFor(pod: Pod, view: MeshView, mesh: MeshConfig, gateway: boolean): ScopeEntry {
    const k = versionKey([
      view.services,
      view.sidecars,
      view.destinationRules,
      view.serviceEntries,
      view.configMaps,
    ]);
    if (k !== key) {
      scopes.clear();
      key = k;
    }
    const ns = podNamespace(pod);
    const sel = gateway ? undefined : selectSidecar(pod, view.sidecars, mesh.rootNamespace);
    const scopeKey = gateway
      ? `gateway|${ns}`
      : `${sel?.source}|${sel?.sidecar?.metadata.namespace ?? ''}/${sel?.sidecar?.metadata.name ?? ''}|${ns}`;
    const hit = scopes.get(scopeKey);
    if (hit) return hit;
    const visibility = visibleServices(
      pod,
      view.services,
      view.serviceEntries,
      view.sidecars,
      mesh.rootNamespace,
      {
        gateway,
      },
    );
    const entry: ScopeEntry = {
      visibility,
      outbound: outboundClusters(
        visibility.services,
        view.destinationRules,
        ns,
        mesh.rootNamespace,
      ),
    };
    scopes.set(scopeKey, entry);
    return entry;
  }

  return {
    clustersFor(pod, view) {
      const mesh = meshConfig(view.configMaps);
      const gateway = isGateway(pod);
      const version = proxyVersion(pod);
      const scope = scopeFor(pod, view, mesh, gateway);
      const inbound = gateway ? [] : inboundClusters(pod, view.services, version);
      return {
        version,
        gateway,
        mesh,
        visibility: scope.visibility,
        staticClusters: STATIC_CLUSTERS,
        outbound: scope.outbound,
        dynamicClusters: [...fixedDynamicClusters(version, gateway), ...scope.outbound, ...inbound],
      };
    },
    size: () => scopes.size,
  };
}
