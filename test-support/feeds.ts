import type { KubeConfig } from '@kubernetes/client-node';
import { ClusterCache } from '../server/cache/cluster-cache';
import type { KubeEvent, Pod } from '../lib/kube/types';
import { latestStatusTime } from '../lib/ledger/observation';
import { WatchFeed } from '../server/kube/feed';
import { CORE } from '../server/kube/resources';
import type { KubeTransport } from '../server/kube/transport';
import { storeIpHistory, type IpHistorySource } from '../server/screens/incidents/ip-history';
import type { TimelineSource } from '../server/screens/timelines/timelines';
import { openHistoryStore, startRecorder, type HistoryStore, type Recorder } from '../server/store';

export interface RecordedIpHistory {
  source: IpHistorySource;
  store: HistoryStore;
  /** Pod events the feed delivered. */
  events(): number;
  stop(): void;
}

/**
 * The pipeline a cluster runtime runs for Incidents (one pod feed and one event feed, the
 * recorder, the SQLite store), on an observation clock of the test's choosing: `clock:
 * 'objects'` dates only by the pod objects' own times, `now` overrides the API server's clock.
 */
export function recordIpHistory(
  t: KubeTransport,
  kc: KubeConfig,
  opts: { clock: 'api-server' | 'objects'; now?: () => Date },
): RecordedIpHistory {
  const now = opts.now ?? (() => t.clusterNow());
  const pods = new WatchFeed<Pod>(t, kc, CORE.pods, { floor: latestStatusTime, now });
  const events = new WatchFeed<KubeEvent>(t, kc, CORE.events, { now });
  const store = openHistoryStore(':memory:', { clock: opts.clock });
  const recorder = startRecorder({ pods, events, store, now });
  pods.start();
  events.start();
  return {
    source: storeIpHistory(store, { ready: pods.whenListed().then(() => recorder.ready) }),
    store,
    events: () => pods.currentStatus.events,
    stop() {
      recorder.stop();
      pods.stop();
      events.stop();
      store.close();
    },
  };
}

/**
 * A recorder on its own pod and event feeds (as a runtime has them), started; stopping it
 * stops the feeds too. For store and timeline tests that drive the recorder directly.
 */
export function recorderOn(
  t: KubeTransport,
  kc: KubeConfig,
  store: HistoryStore,
  opts: { now?: () => Date; backoffMs?: [number, number]; pruneEveryMs?: number } = {},
): Recorder {
  const now = opts.now ?? (() => t.clusterNow());
  const feedOpts = { now, ...(opts.backoffMs ? { backoffMs: opts.backoffMs } : {}) };
  const pods = new WatchFeed<Pod>(t, kc, CORE.pods, { floor: latestStatusTime, ...feedOpts });
  const events = new WatchFeed<KubeEvent>(t, kc, CORE.events, feedOpts);
  const recorder = startRecorder({
    pods,
    events,
    store,
    now,
    ...(opts.pruneEveryMs !== undefined ? { pruneEveryMs: opts.pruneEveryMs } : {}),
  });
  pods.start();
  events.start();
  return {
    ready: recorder.ready,
    status: () => recorder.status(),
    stop() {
      recorder.stop();
      pods.stop();
      events.stop();
    },
  };
}

/** A cluster cache and the history store it reads pods that were from, as a runtime has them. */
export interface CacheWithHistory {
  cache: ClusterCache;
  store: HistoryStore;
  /** The Timelines' source for this store. */
  source: TimelineSource;
  recorder: Recorder;
  /** Stops the recorder, the cache and their feeds (the store stays open: the caller's). */
  stop(): void;
}

/**
 * A ClusterCache on its own feeds, with a recorder writing the same feeds into `store` (an
 * in-memory one by default): the pipeline a runtime runs for Timelines.
 */
export function cacheOn(
  t: KubeTransport,
  kc: KubeConfig,
  store: HistoryStore = openHistoryStore(':memory:'),
  opts: { trim?: null } = {},
): CacheWithHistory {
  const now = () => t.clusterNow();
  const pods = new WatchFeed<Pod>(t, kc, CORE.pods, { floor: latestStatusTime, now, ...opts });
  const events = new WatchFeed<KubeEvent>(t, kc, CORE.events, { now, ...opts });
  const cache = new ClusterCache(t, { pods, events });
  const recorder = startRecorder({ pods, events, store, now });
  pods.start();
  events.start();
  return {
    cache,
    store,
    source: { store, storeNote: null },
    recorder,
    stop() {
      recorder.stop();
      cache.stop();
      pods.stop();
      events.stop();
    },
  };
}
