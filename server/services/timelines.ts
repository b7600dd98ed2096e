/**
 * The Timelines use case: every meshed pod's sidecar startup/shutdown verdicts (the fleet) and
 * one pod's Gantt. Live pods come from the shared watch-fed ClusterCache; deleted pods,
 * transitions and events from the SQLite history store (so timelines survive deletion and
 * meshdx's restart), or from the cache's memory when the store cannot be opened (said in
 * `cache.history` / `cache.historyNote`).
 */
import type { CacheInfo, PodTimelineView, TimelineFleet } from '../../lib/api/timelines';
import { requireName } from '../../lib/kube/names';
import type { ClusterCache } from '../cache/cluster-cache';
import { sharedClusterCache } from '../cache/shared';
import { ensureRecorder, historyStore } from '../history';
import { envoyInitVersion, hasEnvoyInit } from '../envoy/init-times';
import { scrapeProxyStats } from '../envoy/scrape';
import { KubeError } from '../kube/errors';
import type { HistoryStore } from '../store';
import { cluster, env } from '../wiring';
import { AnalysisCache } from './timelines-analysis';
import type { TimelineHistory } from './timelines-history';
import { StoreTimelineHistory, type StoreHistoryOptions } from './timelines-store-history';
import { analyzeHistory, buildFleet, buildPodView, type MeshInput } from './timelines-view';

/** Where the history comes from: the store (preferred) or, when it cannot open, memory. */
export interface TimelineSource {
  store?: HistoryStore | null;
  /** Why there is no store (shown in the view). */
  storeError?: string | null;
  /** A problem with the store's recorder worth showing (e.g. not running). */
  storeNote?: string | null;
  storeOptions?: StoreHistoryOptions;
}

interface Memo {
  key: string;
  fleet: TimelineFleet;
}

interface CacheState {
  analysis: AnalysisCache;
  memo?: Memo;
  store?: { store: HistoryStore; history: StoreTimelineHistory };
}

/** Per cache: analysis results, the store-backed history and the last fleet answer. */
const state = new WeakMap<ClusterCache, CacheState>();

function stateOf(cache: ClusterCache): CacheState {
  let s = state.get(cache);
  if (!s) {
    s = { analysis: new AnalysisCache() };
    state.set(cache, s);
  }
  return s;
}

interface Resolved {
  history: TimelineHistory;
  store: StoreTimelineHistory | null;
  note: string | null;
}

function resolve(cache: ClusterCache, src: TimelineSource): Resolved {
  const s = stateOf(cache);
  if (!src.store) {
    return { history: cache, store: null, note: src.storeError ?? null };
  }
  if (s.store?.store !== src.store) {
    // a different store (reopened): start over, the analyses were of another history
    s.store = {
      store: src.store,
      history: new StoreTimelineHistory(cache, src.store, {
        now: () => cache.now(),
        ...src.storeOptions,
      }),
    };
    s.analysis = new AnalysisCache();
    s.memo = undefined;
  }
  s.store.history.sync();
  return { history: s.store.history, store: s.store.history, note: src.storeNote ?? null };
}

function cacheInfo(cache: ClusterCache, r: Resolved): CacheInfo {
  const s = cache.status();
  const st = r.store?.stats();
  return {
    podsWatch: s.podsWatch,
    eventsWatch: s.eventsWatch,
    livePods: s.livePods,
    deletedPods: st ? r.history.deletedPods().length : s.deletedPods,
    evictedPods: st ? st.evictedPods : s.evictedPods,
    events: s.events,
    history: st ? 'store' : 'memory',
    historyNote: r.note,
  };
}

async function meshOf(cache: ClusterCache): Promise<MeshInput> {
  const m = await cache.meshConfig();
  return { settings: m.settings, version: m.version, from: m.from, errors: m.errors };
}

/** The fleet view model from a (ready) cache, with the store's history when given one. */
export async function timelineFleetFrom(
  cache: ClusterCache,
  now: Date = new Date(),
  src: TimelineSource = {},
): Promise<TimelineFleet> {
  await cache.ready();
  const mesh = await meshOf(cache);
  const r = resolve(cache, src);
  const s = stateOf(cache);
  const st = cache.status();
  const key = [
    cache.pods.version,
    r.store?.generation() ?? 'memory',
    r.note ?? '',
    mesh.version,
    st.podsWatch,
    st.eventsWatch,
    envoyInitVersion(),
  ].join('|');
  if (s.memo?.key === key) return { ...s.memo.fleet, generatedAt: now.toISOString() };
  const items = analyzeHistory(r.history, mesh, s.analysis);
  const fleet = buildFleet(items, mesh, cacheInfo(cache, r), now);
  s.memo = { key, fleet };
  return fleet;
}

/** One pod's timeline from a (ready) cache; a pod meshdx never saw is a 404. */
export async function podTimelineFrom(
  cache: ClusterCache,
  namespace: string,
  name: string,
  src: TimelineSource = {},
): Promise<PodTimelineView> {
  requireName('namespace', namespace);
  requireName('pod', name);
  await cache.ready();
  const mesh = await meshOf(cache);
  const r = resolve(cache, src);
  const view = buildPodView(r.history, namespace, name, mesh, stateOf(cache).analysis);
  if (!view) {
    throw new KubeError(
      'http',
      `pod ${namespace}/${name} is not in the cluster and meshdx has no history of it`,
      { status: 404, reason: 'NotFound' },
    );
  }
  return view;
}

/** The process's shared, watch-fed cache (throws when the cluster is not configured). */
export function processClusterCache(): ClusterCache {
  return sharedClusterCache(cluster(), { istioNamespace: env().MESHDX_ISTIO_NAMESPACE });
}

/** The process's history store, or why it cannot be used (then the cache's memory is). */
export function processSource(): TimelineSource {
  let store: HistoryStore;
  try {
    store = historyStore();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { store: null, storeError: `history store unavailable (${why}): kept in memory only` };
  }
  const rec = ensureRecorder();
  return {
    store,
    storeNote: rec.error ? `history recorder not running: ${rec.error}` : null,
  };
}

/** How long a pod's timeline waits for its proxy's stats before going on without them. */
const POD_SCRAPE_TIMEOUT_MS = 2_000;

export function getTimelineFleet(): Promise<TimelineFleet> {
  const cache = processClusterCache();
  return timelineFleetFrom(cache, cache.now(), processSource());
}

export async function getPodTimeline(namespace: string, name: string): Promise<PodTimelineView> {
  const cache = processClusterCache();
  requireName('namespace', namespace);
  requireName('pod', name);
  // One scrape of the pod's :15090 gives Envoy's init time, a proxy-ready source (never
  // fails); once known it is not asked again on every open of the pod
  if (!hasEnvoyInit(namespace, name))
    await scrapeProxyStats(cluster().transport, namespace, name, POD_SCRAPE_TIMEOUT_MS);
  return podTimelineFrom(cache, namespace, name, processSource());
}
