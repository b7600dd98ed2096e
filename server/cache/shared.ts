/**
 * One ClusterCache per server process and cluster: every use case shares its watches. Kept on
 * globalThis because Next may load a module more than once (route bundles).
 */
import type { Cluster } from '../wiring';
import { ClusterCache, type ClusterCacheOptions } from './cluster-cache';

const holder = globalThis as typeof globalThis & {
  __meshdxCache?: { cluster: Cluster; cache: ClusterCache };
};

/** The shared cache of `cluster`; a new cluster (resetWiring) replaces and stops the old one. */
export function sharedClusterCache(cluster: Cluster, opts: ClusterCacheOptions = {}): ClusterCache {
  const h = holder.__meshdxCache;
  if (h && h.cluster === cluster) return h.cache;
  h?.cache.stop();
  const cache = new ClusterCache(cluster.transport, cluster.kc, opts);
  holder.__meshdxCache = { cluster, cache };
  return cache;
}

/** Tests: forget the shared cache (stopping its watches). */
export function resetSharedClusterCache(): void {
  holder.__meshdxCache?.cache.stop();
  holder.__meshdxCache = undefined;
}
