import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { WatchFeed } from '../kube/feed';
import type { ObservedEvent, WatchState } from '../kube/listwatch';
import type { HistoryStore } from './history-store';
import { storePodKey } from './rows';
import {
  deletionCapture,
  type ContainerLogReader,
  type DeletionCaptureStatus,
} from './deletion-capture';
import type { FailureRetention } from '../../lib/incidents/failure-store';
import { retentionText } from '../../lib/incidents/memory';

export interface RecorderOptions {
  /** The runtime's shared pod and event feeds (one watch each, shared with the other consumers). */
  pods: WatchFeed<Pod>;
  events: WatchFeed<KubeEvent>;
  store: HistoryStore;
  /** The cluster's clock (the API server's, see ClockOffset). */
  now: () => Date;
  /** How often the store's retention is applied (default hourly; 0 = never). */
  pruneEveryMs?: number;
  /**
   * Reads a proxy container's log: given, a meshed pod's log is read once when its deletion
   * starts and its failing requests are recorded (deletion-capture.ts).
   */
  readLog?: ContainerLogReader;
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
  /** Proxy logs read as their pods' deletion started (null: not configured). */
  capture: DeletionCaptureStatus | null;
  /** What the store keeps of raw failing requests, and since when. */
  failures: FailureRetention & { text: string };
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
 * Records everything the runtime's pod and event feeds deliver into the history store. After a
 * restart, the first pod list is reconciled with the store: pods it held as live that the list
 * lacks are closed as gone at an uncertain time between their last sighting and now.
 */
export function startRecorder(opts: RecorderOptions): Recorder {
  const { store, now } = opts;
  const status: RecorderStatus = {
    pods: newStatus(),
    events: newStatus(),
    closedAtStart: null,
    lastError: null,
    store: { pending: 0, lastError: null },
    capture: null,
    failures: { ...store.failures.retention(), text: '' },
  };
  let stopped = false;
  const capture = opts.readLog ? deletionCapture({ store, readLog: opts.readLog, now }) : null;
  const liveBefore = store.livePodKeys();
  const listedPods = new Set<string>();

  const record = <T extends Pod | KubeEvent>(
    ws: WatchStatus,
    ev: ObservedEvent<T>,
    write: (e: ObservedEvent<T>) => void,
  ) => {
    if (stopped) return;
    try {
      write(ev);
      ws.events++;
      ws.lastError = null;
      ws.lastEventAt = ev.observedAt.toISOString();
    } catch (e) {
      ws.lastError = status.lastError = `recording failed: ${message(e)}`;
    }
  };

  function onState(
    resource: string,
    ws: WatchStatus,
    s: WatchState | 'starting',
    detail?: string,
  ): void {
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

  let resolvePods: () => void = () => undefined;
  let resolveEvents: () => void = () => undefined;
  const podsReady = new Promise<void>((r) => (resolvePods = r));
  const eventsReady = new Promise<void>((r) => (resolveEvents = r));

  const unsubscribe = [
    opts.pods.subscribe({
      onState: (s, d) => onState('pods', status.pods, s, d),
      onEvent: (ev) => {
        if (ev.via === 'list' && !status.pods.listed) {
          const m = ev.object.metadata;
          if (m) listedPods.add(storePodKey(m.uid, m.namespace ?? 'default', m.name));
        }
        record(status.pods, ev, (e) => store.recordPodEvent(e));
        capture?.onEvent(ev);
      },
      onListed: () => {
        if (status.pods.listed || stopped) return;
        status.pods.listed = true;
        try {
          status.closedAtStart = store.closeMissing(liveBefore, listedPods, now().getTime());
        } catch (e) {
          status.lastError = `closing vanished pods failed: ${message(e)}`;
        }
        listedPods.clear();
        resolvePods();
      },
    }),
    opts.events.subscribe({
      onState: (s, d) => onState('events', status.events, s, d),
      onEvent: (ev) => record(status.events, ev, (e) => store.recordKubeEvent(e)),
      onListed: () => {
        status.events.listed = true;
        resolveEvents();
      },
    }),
  ];

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
      const pods = opts.pods.currentStatus;
      const events = opts.events.currentStatus;
      const failures = store.failures.retention();
      return {
        ...status,
        pods: { ...status.pods, lastError: status.pods.lastError ?? pods.lastError },
        events: { ...status.events, lastError: status.events.lastError ?? events.lastError },
        store: { pending: store.pending, lastError: store.lastError },
        capture: capture?.status() ?? null,
        failures: { ...failures, text: retentionText(failures) },
      };
    },
    stop() {
      if (stopped) return;
      stopped = true;
      for (const u of unsubscribe) u();
      capture?.stop();
      resolvePods();
      resolveEvents();
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
