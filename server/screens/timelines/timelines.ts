/**
 * The Timelines use case: every meshed pod's sidecar startup/shutdown verdicts (the fleet) and
 * one pod's Gantt. Live pods come from the runtime's watch-fed ClusterCache; deleted pods,
 * transitions and events from its history store, the only record of them (a file, or
 * `:memory:` when none is wanted or the file cannot be opened: said in `cache.history` /
 * `cache.historyNote`).
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
import { failuresOfStore, podFailuresOfStore } from './termination-failures';
import {
  analyzeHistory,
  buildTimelineFleet,
  buildPodView,
  type MeshInput,
} from '../../../lib/timeline/fleet-view';
import type { InjectionInput } from '../../../lib/timeline/next-mode';
import type { ClusterCache } from '../../cache/cluster-cache';
import { EnvoyInitTimes } from '../../envoy/init-times';
import { scrapeProxyStats } from '../../envoy/scrape';
import { KubeError } from '../../kube/errors';
import { runtimeFor } from '../../runtime/registry';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import type { HistoryStore } from '../../store/history-store';
import { StorePodHistory, type StorePodHistoryOptions } from '../../store/pod-history';
import { ViewDeadline, firstListWithin, podListDetail, podsSoFar, viewDeadline } from '../deadline';
import { injectionInput, type NodesMemo } from './injection';
import type { RequestScope } from '../../auth/identity';
import { podKey } from '../../../lib/refs/pod-ref';

/** Where the history comes from: the runtime's store, fed by the same feeds as the cache. */
export interface TimelineSource {
  store: HistoryStore;
  /** The store's file, ':memory:' (the default) when it keeps the history in memory only. */
  file?: string;
  /** Why the history is in memory only, or a problem with its recorder (shown in the view). */
  storeNote?: string | null;
  storeOptions?: StorePodHistoryOptions;
  /** The runtime's pod history of this store; one is made for the store when none is given. */
  podHistory?: StorePodHistory;
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
  store?: { store: HistoryStore; history: StorePodHistory };
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

const timelinesScreen = defineScreen('timelines', newTimelinesState);

/** A runtime's Timelines state, made on first use. */
export function timelinesState(rt: ClusterRuntime): TimelinesState {
  return rt.screen(timelinesScreen);
}

function stateOf(cache: ClusterCache, src: TimelineSource): CacheState {
  const holder = src.state ?? newTimelinesState();
  let s = holder.of?.cache === cache ? holder.of.state : undefined;
  const initTimes = src.initTimes ?? s?.initTimes ?? new EnvoyInitTimes();
  if (!s || s.initTimes !== initTimes) {
    s = { initTimes, analysis: new AnalysisCache((pod, goneAt) => initTimes.for(pod, goneAt)) };
    holder.of = { cache, state: s };
  }
  return s;
}

interface Resolved {
  history: StorePodHistory;
  inMemory: boolean;
  note: string | null;
}

function resolve(cache: ClusterCache, src: TimelineSource, s: CacheState): Resolved {
  if (s.store?.store !== src.store || (src.podHistory && s.store.history !== src.podHistory)) {
    // a different store (reopened): start over, the analyses were of another history
    s.store = {
      store: src.store,
      history:
        src.podHistory ??
        new StorePodHistory(cache, src.store, { now: () => cache.now(), ...src.storeOptions }),
    };
    s.analysis = new AnalysisCache((pod, goneAt) => s.initTimes.for(pod, goneAt));
    s.memo = undefined;
  }
  return {
    history: s.store.history,
    inMemory: (src.file ?? ':memory:') === ':memory:',
    note: src.storeNote ?? null,
  };
}

function cacheInfo(cache: ClusterCache, store: HistoryStore, r: Resolved): CacheInfo {
  const s = cache.status();
  const st = r.history.stats();
  return {
    podsWatch: s.podsWatch,
    eventsWatch: s.eventsWatch,
    livePods: s.livePods,
    deletedPods: st.deletedPods,
    evictedPods: st.evictedPods,
    events: store.counts.kubeEvents,
    history: r.inMemory ? 'memory' : 'store',
    historyNote: r.note,
  };
}

async function meshOf(cache: ClusterCache): Promise<MeshInput> {
  const m = await cache.meshConfig();
  return { settings: m.settings, version: m.version, from: m.from, errors: m.errors };
}

/** Lets the event loop answer what waits (I/O, other requests) before going on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The fleet view model from a (ready) cache and the history store its feeds fill. */
export async function timelineFleetFrom(
  cache: ClusterCache,
  src: TimelineSource,
  now: Date = new Date(),
  /** false: the caller has waited for the lists as far as it wants (a view's first answer). */
  waitForLists = true,
): Promise<TimelineFleet> {
  if (waitForLists) await cache.ready();
  const mesh = await meshOf(cache);
  const injection = src.injection ? await src.injection() : null;
  // nothing waits from here to the analysis' first look at the pods: the cache's live pods,
  // the store's deleted ones and the key are of one instant (a pod deleted in between would
  // be in neither, under a key that says it is)
  const s = stateOf(cache, src);
  const r = resolve(cache, src, s);
  const st = cache.status();
  const failures = failuresOfStore(src.store, cache.now().getTime());
  const key = [
    failures.version,
    JSON.stringify(injection),
    cache.version,
    r.history.generation(),
    r.note ?? '',
    mesh.version,
    st.podsWatch,
    st.eventsWatch,
    s.initTimes.version,
  ].join('|');
  if (s.memo?.key === key) return { ...s.memo.fleet, generatedAt: now.toISOString() };
  const items = await analyzeHistory(r.history, mesh, s.analysis, nextTurn, failures.of);
  const fleet = buildTimelineFleet(items, mesh, cacheInfo(cache, src.store, r), now, injection);
  s.memo = { key, fleet };
  return fleet;
}

/**
 * One pod's timeline from a (ready) cache and the store: with a uid, that pod of the name (see
 * buildPodView). A pod meshdx never saw is a 404; so is a uid it never saw, naming the uid of
 * the pod that has the name now.
 */
export async function podTimelineFrom(
  cache: ClusterCache,
  src: TimelineSource,
  namespace: string,
  name: string,
  uid: string | null = null,
): Promise<PodTimelineView> {
  requireName('namespace', namespace);
  requireName('pod', name);
  await cache.ready();
  const mesh = await meshOf(cache);
  const s = stateOf(cache, src);
  const r = resolve(cache, src, s);
  const view = buildPodView(
    r.history,
    namespace,
    name,
    mesh,
    s.analysis,
    uid,
    podFailuresOfStore(src.store, cache.now().getTime()),
  );
  if (view) return view;
  const key = podKey(namespace, name);
  if (uid === null)
    throw new KubeError(
      'http',
      `pod ${key} is not in the cluster and meshdx has no history of it`,
      {
        status: 404,
        reason: 'NotFound',
      },
    );
  const named = r.history.findPod(namespace, name);
  const other = named?.pod.metadata.uid
    ? `; the pod of that name ${named.deleted ? 'meshdx saw last' : 'now'} has uid ${named.pod.metadata.uid}`
    : '';
  throw new KubeError(
    'http',
    `pod ${key} with uid ${uid}: neither the cluster nor meshdx's history has a pod of that name with this uid${other}`,
    { status: 404, reason: 'NotFound' },
  );
}

/** The runtime's history store as the timelines' source. */
export function runtimeSource(rt: ClusterRuntime): TimelineSource {
  const rec = rt.recorder.status();
  const state = timelinesState(rt);
  const watchProblem = rec.pods.lastError ?? rec.events.lastError;
  return {
    store: rt.store,
    podHistory: rt.podHistory,
    file: rt.history.file,
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
  // the pods read so far while a big cluster's first list runs; the events it can do without
  const podsLate = await podsSoFar(rt, deadline);
  if (!podsLate) {
    // verdicts without the Events (probe failures, kills) are still verdicts; the answer says so
    await deadline.within(
      'Kubernetes Events',
      rt.events.whenListed(),
      () =>
        'their list is still running: verdicts read from probe failures and kill events may be missing until it is in',
    );
  } else {
    // a first answer from part of the pods does not wait for the whole Events list either
    const soon = Math.min(rt.settings.MESHDX_FIRST_ANSWER_MS, deadline.remaining());
    if (!(await firstListWithin(rt.events, soon)))
      deadline.late.push({
        part: 'Kubernetes Events',
        detail:
          'their first list is still running: verdicts read from probe failures and kill events may be missing until it is in',
      });
  }
  await deadline.need('mesh config', rt.cache.meshConfig());
  const src = runtimeSource(rt);
  const injection = src.injection;
  if (injection) {
    src.injection = async () => {
      const r = await deadline.within('sidecar injection (istiod setting, nodes)', injection());
      return r.ok ? r.value : null;
    };
  }
  const fleet = await timelineFleetFrom(rt.cache, src, rt.now(), false);
  return deadline.late.length > 0 ? { ...fleet, late: [...deadline.late] } : fleet;
}

/**
 * What the Timelines page does before the browser asks for the fleet: the runtime's watches are
 * started, and, once its pods are listed, the fleet's analysis too (the browser's request then
 * finds it done). While a first list still runs, the analysis waits for that request: two
 * analyses of a growing list would take turns on one thread and delay both.
 */
export function warmTimelines(scope: RequestScope): void {
  const rt = runtimeFor(scope);
  rt.start();
  if (rt.pods.currentStatus.listed) void timelineFleetOf(rt).catch(() => undefined);
}

/**
 * The fleet's page for a server-rendered Timelines page, when it can be had without waiting for
 * a list: the runtime's pods and Events are listed (the answer is then the cached analysis, or
 * the analysis of what changed). Null while a first list still runs (the runtime is started and
 * the browser asks for the page itself, as the answer then says how far the list got).
 */
export function timelinesPageNow(
  scope: RequestScope,
  query: TimelineQuery,
): Promise<TimelinePagedFleet> | null {
  const rt = runtimeFor(scope);
  rt.start();
  if (!rt.pods.currentStatus.listed || !rt.events.currentStatus.listed) return null;
  return getTimelinePage(scope, query);
}

export function getTimelineFleet(scope: RequestScope): Promise<TimelineFleet> {
  return timelineFleetOf(runtimeFor(scope));
}

/** One page of the fleet as the screen asked for it (filters, sort, page), counts of them all. */
export async function getTimelinePage(
  scope: RequestScope,
  query: TimelineQuery,
): Promise<TimelinePagedFleet> {
  return pageTimelineFleet(await getTimelineFleet(scope), query);
}

export async function getPodTimeline(
  scope: RequestScope,
  namespace: string,
  name: string,
  uid: string | null = null,
): Promise<PodTimelineView> {
  const rt = runtimeFor(scope);
  requireName('namespace', namespace);
  requireName('pod', name);
  // One scrape of the pod's :15090 gives Envoy's init time, a proxy-ready source (never
  // fails); once known it is not asked again on every open of the pod
  const deadline = viewDeadline(rt, `The timeline of ${podKey(namespace, name)}`);
  if (!rt.envoyInit.has(namespace, name))
    await scrapeProxyStats(rt.transport, namespace, name, POD_SCRAPE_TIMEOUT_MS, rt.envoyInit);
  await deadline.need('pods and events', rt.cache.ready(), () => podListDetail(rt));
  return podTimelineFrom(rt.cache, runtimeSource(rt), namespace, name, uid);
}
