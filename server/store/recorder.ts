import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeEvent, Pod } from '../../lib/kube/types';
import { latestStatusTime } from '../../lib/ledger/observation';
import { ListWatcher, type ObservedEvent, type WatchState } from '../kube/listwatch';
import { CORE } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';
import type { HistoryStore } from './history-store';
import { podKeyOf } from './rows';

export interface RecorderOptions {
  transport: KubeTransport;
  kc: KubeConfig;
  store: HistoryStore;
  /** Observation clock (default: the API server's, see ClockOffset). */
  now?: () => Date;
  /** Backoff of the watchers and of a failed first list: first delay and cap (ms). */
  backoffMs?: [number, number];
  /** How often the store's retention is applied (default hourly; 0 = never). */
  pruneEveryMs?: number;
}

export interface WatchStatus {
  state: WatchState | 'starting';
  detail: string | null;
  /** Events written to the store. */
  events: number;
  lastEventAt: string | null;
  /** The first list has completed. */
  listed: boolean;
  lastError: string | null;
}

export interface RecorderStatus {
  pods: WatchStatus;
  events: WatchStatus;
  /** Pods the store held as live that the first list no longer had (closed as gone). */
  closedAtStart: number | null;
  lastError: string | null;
  store: { pending: number; lastError: string | null };
}

export interface Recorder {
  /** Settles once both first lists are done (or the recorder is stopped). */
  ready: Promise<void>;
  status(): RecorderStatus;
  /** Stops the watches and commits what is pending; the store stays open (the caller owns it). */
  stop(): void;
}

const newStatus = (): WatchStatus => ({
  state: 'starting',
  detail: null,
  events: 0,
  lastEventAt: null,
  listed: false,
  lastError: null,
});

/**
 * Watches pods and events in all namespaces and records everything into the history store.
 * After a restart, the first pod list is reconciled with the store: pods it held as live that
 * the list lacks are closed as gone at an uncertain time between their last sighting and now.
 */
export function startRecorder(opts: RecorderOptions): Recorder {
  const { store } = opts;
  const now = opts.now ?? (() => opts.transport.clusterNow());
  const status: RecorderStatus = {
    pods: newStatus(),
    events: newStatus(),
    closedAtStart: null,
    lastError: null,
    store: { pending: 0, lastError: null },
  };
  let stopped = false;
  const timers = new Map<NodeJS.Timeout, () => void>();
  const liveBefore = store.livePodKeys();
  const listedPods = new Set<string>();

  const record = <T extends Pod | KubeEvent>(
    ws: WatchStatus,
    ev: ObservedEvent<T>,
    write: (e: ObservedEvent<T>) => void,
  ) => {
    try {
      write(ev);
      ws.events++;
      ws.lastEventAt = ev.observedAt.toISOString();
    } catch (e) {
      ws.lastError = status.lastError = `recording failed: ${message(e)}`;
    }
  };

  const podWatcher = new ListWatcher<Pod>(opts.transport, opts.kc, CORE.pods, {
    backoffMs: opts.backoffMs,
    now,
    floor: latestStatusTime,
    onState: (s, d) => onState('pods', status.pods, s, d),
    onEvent: (ev) => {
      if (ev.via === 'list' && !status.pods.listed) {
        const m = ev.object.metadata;
        if (m) listedPods.add(podKeyOf(m.uid, m.namespace ?? 'default', m.name));
      }
      record(status.pods, ev, (e) => store.recordPodEvent(e));
    },
  });
  const eventWatcher = new ListWatcher<KubeEvent>(opts.transport, opts.kc, CORE.events, {
    backoffMs: opts.backoffMs,
    now,
    onState: (s, d) => onState('events', status.events, s, d),
    onEvent: (ev) => record(status.events, ev, (e) => store.recordKubeEvent(e)),
  });

  function onState(resource: string, ws: WatchStatus, s: WatchState, detail?: string): void {
    ws.state = s;
    ws.detail = detail ?? null;
    if (s === 'retrying' && detail) ws.lastError = detail;
    if (stopped) return;
    try {
      store.recordWatchState(resource, detail ? `${s}: ${detail}` : s, now().getTime());
    } catch (e) {
      status.lastError = `recording watch state failed: ${message(e)}`;
    }
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    });

  /** ListWatcher.start() gives up when the first list fails: retry it with backoff. */
  async function startWithRetry<T extends Pod | KubeEvent>(
    w: ListWatcher<T>,
    ws: WatchStatus,
  ): Promise<boolean> {
    const [first, cap] = opts.backoffMs ?? [500, 30_000];
    for (let attempt = 0; !stopped; attempt++) {
      try {
        await w.start();
        if (stopped) return false;
        ws.listed = true;
        return true;
      } catch (e) {
        ws.lastError = status.lastError = `first list failed: ${message(e)}`;
        ws.state = 'retrying';
        await sleep(Math.min(cap, first * 2 ** Math.min(attempt, 10)));
      }
    }
    return false;
  }

  const podsReady = startWithRetry(podWatcher, status.pods).then((ok) => {
    if (!ok) return;
    try {
      status.closedAtStart = store.closeMissing(liveBefore, listedPods, now().getTime());
    } catch (e) {
      status.lastError = `closing vanished pods failed: ${message(e)}`;
    }
    listedPods.clear();
  });
  const eventsReady = startWithRetry(eventWatcher, status.events);

  const pruneEvery = opts.pruneEveryMs ?? 3_600_000;
  const prune = () => {
    try {
      store.prune(now().getTime());
    } catch (e) {
      status.lastError = `pruning failed: ${message(e)}`;
    }
  };
  let pruneTimer: NodeJS.Timeout | null = null;
  if (pruneEvery > 0) {
    prune();
    pruneTimer = setInterval(prune, pruneEvery);
    pruneTimer.unref();
  }

  return {
    ready: Promise.all([podsReady, eventsReady]).then(() => undefined),
    status() {
      return {
        ...status,
        pods: { ...status.pods },
        events: { ...status.events },
        store: { pending: store.pending, lastError: store.lastError },
      };
    },
    stop() {
      if (stopped) return;
      stopped = true;
      podWatcher.stop();
      eventWatcher.stop();
      for (const [t, resolve] of timers) {
        clearTimeout(t);
        resolve();
      }
      timers.clear();
      if (pruneTimer) clearInterval(pruneTimer);
      try {
        store.flush();
      } catch (e) {
        status.lastError = `final commit failed: ${message(e)}`;
      }
    },
  };
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
