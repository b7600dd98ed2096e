import type { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../../lib/kube/types';
import type { IpHistory } from '../../lib/ledger/attribution';
import { IpLedger } from '../../lib/ledger/ledger';
import { observePod } from '../../lib/ledger/observation';
import type { PodInterval } from '../../lib/ledger/types';
import { ListWatcher, type ObservedEvent } from '../kube/listwatch';
import { CORE } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';

/** A pod-IP history that answers (ip, time) lookups and lists its intervals. */
export interface IpHistoryView extends IpHistory {
  history(ip: string): PodInterval[];
}

/**
 * Where the Incidents use case gets pod IP history. Implemented here by a watch-fed in-memory
 * ledger; the SQLite store plugs in as `storeIntervalSource(store)` below.
 */
export interface IntervalSource {
  lookup(): IpHistoryView;
  intervals(): PodInterval[];
  info(): { source: string; note: string | null };
  /** Settles once the first pod list has been taken in. */
  ready: Promise<void>;
}

/** What a HistoryStore offers that this needs (server/store/history-store.ts). */
export interface StoreLike {
  loadHistory(): IpHistoryView;
  allIntervals(): Iterable<PodInterval>;
}

/** The SQLite history store as an interval source: pass it to setIncidentHistory(). */
export function storeIntervalSource(store: StoreLike): IntervalSource {
  return {
    lookup: () => store.loadHistory(),
    intervals: () => [...store.allIntervals()],
    info: () => ({ source: 'meshdx history store', note: null }),
    ready: Promise.resolve(),
  };
}

export interface WatchSourceOptions {
  /**
   * Observation clock for streamed events (epoch ms), or null to use only the times written in
   * the pod objects (the simulator's clock is not the wall clock, so observation times would lie).
   */
  clock: (() => number) | null;
  backoffMs?: [number, number];
}

/**
 * An in-memory pod IP ledger fed by a pod list+watch over all namespaces. Listed pods carry no
 * observation time (they changed before meshdx looked); watched changes get the clock's time.
 */
export class WatchedIntervalSource implements IntervalSource {
  private readonly ledger = new IpLedger();
  private readonly watcher: ListWatcher<Pod>;
  readonly ready: Promise<void>;
  invalid = 0;
  /** Pod events taken in. */
  events = 0;
  lastState: string = 'starting';

  constructor(
    t: KubeTransport,
    kc: KubeConfig,
    private readonly opts: WatchSourceOptions,
  ) {
    this.watcher = new ListWatcher<Pod>(t, kc, CORE.pods, {
      onEvent: (ev) => this.take(ev),
      onState: (s, d) => {
        this.lastState = d ? `${s}: ${d}` : s;
      },
      backoffMs: opts.backoffMs,
    });
    this.ready = this.watcher.start();
    this.ready.catch(() => undefined);
  }

  /** Feeds one observed pod event into the ledger (also for tests without a server). */
  take(ev: ObservedEvent<Pod>): void {
    this.events++;
    const pod = observePod(ev.object);
    if (typeof pod === 'string') {
      this.invalid++;
      return;
    }
    if (ev.via === 'watch' && this.opts.clock) {
      this.ledger.add({ type: ev.type, pod, time: this.opts.clock() });
    } else {
      // Only the objects' own times: the ledger dates a DELETED by its containers' last exit,
      // exactly as it does for an offline kubectl watch capture (meshdx attribute).
      this.ledger.add({ type: ev.type, pod, time: null });
    }
  }

  lookup(): IpHistoryView & { size: number } {
    return this.ledger;
  }

  intervals(): PodInterval[] {
    return this.ledger.intervals();
  }

  info(): { source: string; note: string | null } {
    const untimed = this.opts.clock
      ? ''
      : ' Times come from the pod objects (start, deletion, last status), not from observation.';
    return {
      source: 'in-memory pod watch',
      note: `Pod IP history since this meshdx process started (${this.lastState}); pods deleted before that are unknown.${untimed}`,
    };
  }

  stop(): void {
    this.watcher.stop();
  }
}
