/**
 * The Timelines use case: every meshed pod's sidecar startup/shutdown verdicts (the fleet) and
 * one pod's Gantt, served from the shared watch-fed ClusterCache. The history store plugs in
 * behind TimelineHistory (see timelines-history.ts).
 */
import type { CacheInfo, PodTimelineView, TimelineFleet } from '../../lib/api/timelines';
import { requireName } from '../../lib/kube/names';
import type { ClusterCache } from '../cache/cluster-cache';
import { sharedClusterCache } from '../cache/shared';
import { KubeError } from '../kube/errors';
import { cluster, env } from '../wiring';
import { AnalysisCache } from './timelines-analysis';
import { analyzeHistory, buildFleet, buildPodView, type MeshInput } from './timelines-view';

interface Memo {
  key: string;
  fleet: TimelineFleet;
}

/** Per cache: analysis results and the last fleet answer (reused while nothing changed). */
const state = new WeakMap<ClusterCache, { analysis: AnalysisCache; memo?: Memo }>();

function stateOf(cache: ClusterCache) {
  let s = state.get(cache);
  if (!s) {
    s = { analysis: new AnalysisCache() };
    state.set(cache, s);
  }
  return s;
}

function cacheInfo(cache: ClusterCache): CacheInfo {
  const s = cache.status();
  return {
    podsWatch: s.podsWatch,
    eventsWatch: s.eventsWatch,
    livePods: s.livePods,
    deletedPods: s.deletedPods,
    evictedPods: s.evictedPods,
    events: s.events,
    history: 'memory',
  };
}

async function meshOf(cache: ClusterCache): Promise<MeshInput> {
  const m = await cache.meshConfig();
  return { settings: m.settings, version: m.version, from: m.from, errors: m.errors };
}

/** The fleet view model from a (ready) cache. */
export async function timelineFleetFrom(
  cache: ClusterCache,
  now: Date = new Date(),
): Promise<TimelineFleet> {
  await cache.ready();
  const mesh = await meshOf(cache);
  const s = stateOf(cache);
  const st = cache.status();
  const key = `${cache.pods.version}|${mesh.version}|${st.podsWatch}|${st.eventsWatch}`;
  if (s.memo?.key === key) return { ...s.memo.fleet, generatedAt: now.toISOString() };
  const fleet = buildFleet(analyzeHistory(cache, mesh, s.analysis), mesh, cacheInfo(cache), now);
  s.memo = { key, fleet };
  return fleet;
}

/** One pod's timeline from a (ready) cache; a pod meshdx never saw is a 404. */
export async function podTimelineFrom(
  cache: ClusterCache,
  namespace: string,
  name: string,
): Promise<PodTimelineView> {
  requireName('namespace', namespace);
  requireName('pod', name);
  await cache.ready();
  const mesh = await meshOf(cache);
  const view = buildPodView(cache, namespace, name, mesh, stateOf(cache).analysis);
  if (!view) {
    throw new KubeError(
      'http',
      `pod ${namespace}/${name} is not in the cluster and meshdx has no history of it`,
      { status: 404, reason: 'NotFound' },
    );
  }
  return view;
}

function clusterCache(): ClusterCache {
  return sharedClusterCache(cluster(), { istioNamespace: env().MESHDX_ISTIO_NAMESPACE });
}

export function getTimelineFleet(): Promise<TimelineFleet> {
  return timelineFleetFrom(clusterCache());
}

export function getPodTimeline(namespace: string, name: string): Promise<PodTimelineView> {
  return podTimelineFrom(clusterCache(), namespace, name);
}
