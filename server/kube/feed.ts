/**
 * One list+watch of a resource, shared by every consumer of a cluster runtime: the inventory
 * cache, the SQLite history recorder, Timelines and Incidents all hear the same events, so the
 * API server pays for one list and one watch per resource, not one per consumer.
 *
 * The first list is retried with backoff until it succeeds (a cluster that is down at start is
 * picked up later); after it, the ListWatcher keeps the stream whole (410 Gone relists and
 * reconciles). A consumer that joins late is given the current objects as a list first.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { trimFor } from '../../lib/kube/trim';
import type { KubeObject } from '../../lib/kube/types';
import {
  ListWatcher,
  type ListWatchOptions,
  type ListProgress,
  type ObservedEvent,
  type WatchState,
} from './listwatch';
import type { ResourceType } from './resources';
import type { KubeTransport } from './transport';

export interface FeedConsumer<T extends KubeObject> {
  onEvent(ev: ObservedEvent<T>): void;
  onState?(state: WatchState | 'starting', detail?: string): void;
  /** After each successful (re)list of the first list's kind: `first` for the very first one. */
  onListed?(first: boolean): void;
}

export type FeedOptions<T extends KubeObject> = Omit<
  ListWatchOptions<T>,
  'onEvent' | 'onState' | 'trim'
> & {
  /**
   * What the feed keeps of each object: by default the resource's trim (lib/kube/trim.ts: a pod
   * keeps the fields of the Pod type), null to keep objects whole.
   */
  trim?: ((object: T) => T) | null;
};

export interface FeedStatus {
  state: WatchState | 'starting';
  detail: string | null;
  listed: boolean;
  /** Events delivered since start. */
  events: number;
  lastError: string | null;
  /** Events a consumer failed on (a bug in meshdx, counted; the other consumers got them). */
  consumerErrors: number;
  lastConsumerError: string | null;
  /** Objects of the last list meshdx cannot read (a Pod without spec), left out of every view. */
  rejected: number;
  /** First-list attempts (1 when it worked at once). */
  attempts: number;
  /** How far the list under way (or the last one) got: pages and objects read. */
  progress: ListProgress;
}

export class WatchFeed<T extends KubeObject> {
  private readonly consumers = new Set<FeedConsumer<T>>();
  private readonly watcher: ListWatcher<T>;
  private readonly status: FeedStatus = {
    state: 'starting',
    detail: null,
    listed: false,
    events: 0,
    lastError: null,
    consumerErrors: 0,
    lastConsumerError: null,
    rejected: 0,
    attempts: 0,
    progress: { pages: 0, objects: 0, remaining: null, startedAt: null },
  };
  private started = false;
  private stopped = false;
  private attempt: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(
    t: KubeTransport,
    kc: KubeConfig,
    readonly resource: ResourceType,
    private readonly opts: FeedOptions<T> = {},
  ) {
    const { trim, ...rest } = opts;
    this.watcher = new ListWatcher<T>(t, kc, resource, {
      ...rest,
      // every consumer (cache, recorder, views) holds the same trimmed object: trimmed here, once
      ...(trim === null ? {} : { trim: trim ?? trimFor(resource.plural) }),
      onEvent: (ev) => this.deliver(ev),
      onState: (s, d) => this.noteState(s, d),
    });
  }

  /** Adds a consumer; once listed, it first hears the current objects as 'list' events. */
  subscribe(c: FeedConsumer<T>): () => void {
    this.consumers.add(c);
    if (this.status.listed) {
      const at = new Date();
      for (const object of this.watcher.snapshot())
        c.onEvent({ type: 'ADDED', object, observedAt: at, via: 'list' });
      c.onListed?.(true);
    }
    return () => this.consumers.delete(c);
  }

  /** Starts listing (idempotent). Never throws: failures are retried and reported. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.tryList(0);
  }

  /**
   * Resolves once the first list is done. While it is failing, rejects with the latest error
   * (after trying again at once), so a view shows why instead of waiting for the backoff.
   */
  whenListed(): Promise<void> {
    if (this.status.listed) return Promise.resolve();
    if (this.stopped) return Promise.reject(new Error(`${this.resource.plural} watch stopped`));
    this.start();
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.attempt && this.timer) {
      // waiting out a backoff: try now, a person is asking
      clearTimeout(this.timer);
      this.timer = null;
      this.tryList(this.status.attempts);
    }
    return p;
  }

  snapshot(): T[] {
    return this.watcher.snapshot();
  }

  /** Objects of the last list meshdx cannot read (a Pod without spec), as they came. */
  rejectedObjects(): unknown[] {
    return [...this.watcher.rejectedObjects];
  }

  get currentStatus(): FeedStatus {
    return {
      ...this.status,
      rejected: this.watcher.rejected,
      progress: { ...this.watcher.progress },
    };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.watcher.stop();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(new Error(`${this.resource.plural} watch stopped`));
  }

  private tryList(attemptNo: number): void {
    if (this.stopped) return;
    this.timer = null;
    this.status.attempts = attemptNo + 1;
    this.attempt = this.watcher.start().then(
      () => {
        this.attempt = null;
        if (this.stopped) return;
        this.status.listed = true;
        this.status.lastError = null;
        for (const c of this.consumers) c.onListed?.(true);
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w.resolve();
      },
      (e: unknown) => {
        this.attempt = null;
        const msg = e instanceof Error ? e.message : String(e);
        this.status.lastError = `first list failed: ${msg}`;
        this.noteState('retrying', this.status.lastError);
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w.reject(e);
        if (this.stopped) return;
        const [first, cap] = this.opts.backoffMs ?? [500, 30_000];
        const delay = Math.min(cap, first * 2 ** Math.min(attemptNo, 10));
        this.timer = setTimeout(() => this.tryList(attemptNo + 1), delay);
        this.timer.unref();
      },
    );
  }

  private deliver(ev: ObservedEvent<T>): void {
    this.status.events++;
    // an event read is a successful read: a watch problem it follows is over
    this.status.lastError = null;
    for (const c of this.consumers) {
      try {
        c.onEvent(ev);
      } catch (e) {
        // one consumer's bug must not starve the others of the stream
        this.status.consumerErrors++;
        this.status.lastConsumerError = `a consumer failed on ${ev.type}: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
  }

  private noteState(s: WatchState | 'starting', detail?: string): void {
    this.status.state = s;
    this.status.detail = detail ?? null;
    if (s === 'retrying' && detail) this.status.lastError = detail;
    for (const c of this.consumers) c.onState?.(s, detail);
  }
}
