/**
 * The Timelines use case: every meshed pod's sidecar startup/shutdown verdicts (the fleet) and
 * one pod's Gantt. Live pods come from the runtime's watch-fed ClusterCache; deleted pods,
 * transitions and events from its SQLite history store (so timelines survive deletion and
 * meshdx's restart). Without a store (tests, benchmarks) the cache's memory is the history
 * (said in `cache.history` / `cache.historyNote`).
 */
import type {
  CacheInfo,
  PodTimelineView,
  TimelineFleet,
  TimelinePagedFleet,
} from '../../../lib/api/timelines';
import { pageTimelineFleet, type TimelineQuery } from '../../../lib/timeline/fleet-page';
import { requireName } from '../../../lib/kube/names';
import { AnalysisCache } from '../../../lib/timeline/analysis-cache';
import {
  analyzeHistory,
  buildFleet,
  buildPodView,
  type MeshInput,
} from '../../../lib/timeline/fleet-view';
import type { InjectionInput } from '../../../lib/timeline/next-mode';
import type { PodRecords } from '../../../lib/timeline/pod-records';
import type { ClusterCache } from '../../cache/cluster-cache';
import { EnvoyInitTimes } from '../../envoy/init-times';
import { scrapeProxyStats } from '../../envoy/scrape';
import { KubeError } from '../../kube/errors';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import type { HistoryStore } from '../../store/history-store';
import { StorePodRecords, type StoreHistoryOptions } from '../../store/pod-records';
import { podListDetail, viewDeadline, type ViewDeadline } from '../deadline';
import { injectionInput, type NodesMemo } from './injection';

/** Where the history comes from: the store, or the cache's memory when there is none. */
export interface TimelineSource {
  store?: HistoryStore | null;
  /** Why there is no store, or that it is in memory only (shown in the view). */
  storeError?: string | null;
  /** A problem with the store's recorder worth showing (e.g. a watch failing). */
  storeNote?: string | null;
  storeOptions?: StoreHistoryOptions;
  /** The runtime's Envoy init times (a proxy-ready source). */
  initTimes?: EnvoyInitTimes;
  /** What the injector does for new pods (istiod's setting, the nodes); none in offline tests. */
  injection?: () => Promise<InjectionInput | null>;
  /**
   * What the screen keeps between calls (its owner: the runtime, see timelinesState). Without
   * one, nothing is kept: every call analyses the history anew.
   */
  state?: TimelinesState;
}

interface Memo {
  key: string;
  fleet: TimelineFleet;
}

interface CacheState {
  initTimes: EnvoyInitTimes;
  analysis: AnalysisCache;
  memo?: Memo;
  store?: { store: HistoryStore; history: StorePodRecords };
}

/**
 * The Timelines screen's state in a runtime: for its cache, the analysis results, the
 * store-backed records and the last fleet answer; the last nodes list. Dropped with the runtime.
 */
export interface TimelinesState {
  of: { cache: ClusterCache; state: CacheState } | null;
  nodes: NodesMemo;
}

/** Timelines state that holds nothing yet. */
export function newTimelinesState(): TimelinesState {
  return { of: null, nodes: { last: null } };
}

/** A runtime's Timelines state, made on first use. */
export function timelinesState(rt: ClusterRuntime): TimelinesState {
  return rt.screen('timelines', newTimelinesState);
}

function stateOf(cache: ClusterCache, src: TimelineSource): CacheState {
  const holder = src.state ?? newTimelinesState();
  let s = holder.of?.cache === cache ? holder.of.state : undefined;
  const initTimes = src.initTimes ?? s?.initTimes ?? new EnvoyInitTimes();
  if (!s || s.initTimes !== initTimes) {
    s = { initTimes, analysis: new AnalysisCache((pod) => initTimes.for(pod)) };
    holder.of = { cache, state: s };
  }
  return s;
}

interface Resolved {
  history: PodRecords;
  store: StorePodRecords | null;
  note: string | null;
}

function resolve(cache: ClusterCache, src: TimelineSource, s: CacheState): Resolved {
  if (!src.store) {
    return { history: cache, store: null, note: src.storeError ?? null };
  }
  if (s.store?.store !== src.store) {
    // a different store (reopened): start over, the analyses were of another history
    s.store = {
      store: src.store,
      history: new StorePodRecords(cache, src.store, {
        now: () => cache.now(),
        ...src.storeOptions,
      }),
    };
    s.analysis = new AnalysisCache((pod) => s.initTimes.for(pod));
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

/** Lets the event loop answer what waits (I/O, other requests) before going on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The fleet view model from a (ready) cache, with the store's history when given one. */
export async function timelineFleetFrom(
  cache: ClusterCache,
  now: Date = new Date(),
  src: TimelineSource = {},
): Promise<TimelineFleet> {
  await cache.ready();
  const mesh = await meshOf(cache);
  const s = stateOf(cache, src);
  const r = resolve(cache, src, s);
  const st = cache.status();
  const injection = src.injection ? await src.injection() : null;
  const key = [
    JSON.stringify(injection),
    cache.pods.version,
    r.store?.generation() ?? 'memory',
    r.note ?? '',
    mesh.version,
    st.podsWatch,
    st.eventsWatch,
    s.initTimes.version,
  ].join('|');
  if (s.memo?.key === key) return { ...s.memo.fleet, generatedAt: now.toISOString() };
  const items = await analyzeHistory(r.history, mesh, s.analysis, nextTurn);
  const fleet = buildFleet(items, mesh, cacheInfo(cache, r), now, injection);
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
  const s = stateOf(cache, src);
  const r = resolve(cache, src, s);
  const view = buildPodView(r.history, namespace, name, mesh, s.analysis);
  if (!view) {
    throw new KubeError(
      'http',
      `pod ${namespace}/${name} is not in the cluster and meshdx has no history of it`,
      { status: 404, reason: 'NotFound' },
    );
  }
  return view;
}

/** The runtime's history store as the timelines' source. */
export function runtimeSource(rt: ClusterRuntime): TimelineSource {
  const rec = rt.recorder.status();
  const state = timelinesState(rt);
  const watchProblem = rec.pods.lastError ?? rec.events.lastError;
  return {
    store: rt.store,
    storeError: null,
    storeNote:
      [rt.history.fallback, watchProblem ? `history watch: ${watchProblem}` : null]
        .filter(Boolean)
        .join(' ') || null,
    initTimes: rt.envoyInit,
    injection: () => injectionInput(rt.transport, rt.cache.livePods(), state.nodes),
    state,
  };
}

/** How long a pod's timeline waits for its proxy's stats before going on without them. */
const POD_SCRAPE_TIMEOUT_MS = 2_000;

/**
 * The fleet by the view's deadline: without the pod list there is no fleet (503 naming how far
 * the list got); the injector's inputs (istiod's setting, the nodes) it can do without (listed
 * as late, the modes card then says it could not read them).
 */
export async function timelineFleetOf(
  rt: ClusterRuntime,
  deadline: ViewDeadline = viewDeadline(rt, 'Timelines'),
): Promise<TimelineFleet> {
  await deadline.need('pods and events', rt.cache.ready(), () => podListDetail(rt));
  const src = runtimeSource(rt);
  const injection = src.injection;
  if (injection) {
    src.injection = async () => {
      const r = await deadline.within('sidecar injection (istiod setting, nodes)', injection());
      return r.ok ? r.value : null;
    };
  }
  const fleet = await timelineFleetFrom(rt.cache, rt.now(), src);
  return deadline.late.length > 0 ? { ...fleet, late: [...deadline.late] } : fleet;
}

export function getTimelineFleet(context: string | null): Promise<TimelineFleet> {
  return timelineFleetOf(runtimeFor(context));
}

/** One page of the fleet as the screen asked for it (filters, sort, page), counts of them all. */
export async function getTimelinePage(
  context: string | null,
  query: TimelineQuery,
): Promise<TimelinePagedFleet> {
  return pageTimelineFleet(await getTimelineFleet(context), query);
}

export async function getPodTimeline(
  context: string | null,
  namespace: string,
  name: string,
): Promise<PodTimelineView> {
  const rt = runtimeFor(context);
  requireName('namespace', namespace);
  requireName('pod', name);
  // One scrape of the pod's :15090 gives Envoy's init time, a proxy-ready source (never
  // fails); once known it is not asked again on every open of the pod
  const deadline = viewDeadline(rt, `The timeline of ${namespace}/${name}`);
  if (!rt.envoyInit.has(namespace, name))
    await scrapeProxyStats(rt.transport, namespace, name, POD_SCRAPE_TIMEOUT_MS, rt.envoyInit);
  await deadline.need('pods and events', rt.cache.ready(), () => podListDetail(rt));
  return podTimelineFrom(rt.cache, namespace, name, runtimeSource(rt));
}
