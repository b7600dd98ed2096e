import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../../lib/kube/types';
import { isKubeError } from './errors';
import { collectionPath, listResource, type ResourceType } from './resources';
import { budgetOf } from './budget';
import type { KubeTransport } from './transport';

export interface ObservedEvent<T extends KubeObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: T;
  /** When meshdx saw it, on the API server's clock (see ClockOffset). */
  observedAt: Date;
  /**
   * 'watch': streamed by the API server. 'list': present at a (re)list. 'reconcile': derived by
   * comparing a relist with what was known (the change happened while no watch was open, some
   * time after `gapStartedAt`).
   */
  via: 'watch' | 'list' | 'reconcile';
  gapStartedAt?: Date;
}

export type WatchState = 'listing' | 'watching' | 'retrying' | 'stopped';

export interface ListWatchOptions<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  onEvent: (ev: ObservedEvent<T>) => void;
  onState?: (state: WatchState, detail?: string) => void;
  /** Backoff after a failure: first delay and cap (ms). */
  backoffMs?: [number, number];
  now?: () => Date;
  /**
   * The latest time the object itself reports (e.g. a pod's last container start): an
   * observation is never dated before it, whatever the clock estimate says.
   */
  floor?: (object: T) => number | null;
}

const keyOf = (o: KubeObject) =>
  o.metadata.uid ?? `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * List, then watch from the list's resourceVersion; when the watch drops, watch again from the
 * last resourceVersion seen; when the server says 410 Gone (the version expired), relist and
 * reconcile against what was known, emitting the ADDED/MODIFIED/DELETED that happened in the
 * gap. Consumers therefore see every object's history without a hole.
 */
export class ListWatcher<T extends KubeObject> {
  private readonly known = new Map<string, T>();
  private resourceVersion = '';
  private stopped = false;
  private abort?: AbortController;
  private timer?: NodeJS.Timeout;
  private failures = 0;
  private lastContact?: Date;
  private state: WatchState = 'listing';
  /** Objects of the last list whose shape meshdx cannot read (left out, see listResource). */
  rejected = 0;

  constructor(
    private readonly t: KubeTransport,
    private readonly kc: KubeConfig,
    private readonly rt: ResourceType,
    private readonly opts: ListWatchOptions<T>,
  ) {}

  get currentState(): WatchState {
    return this.state;
  }

  snapshot(): T[] {
    return [...this.known.values()];
  }

  async start(): Promise<void> {
    await this.relist(false);
    this.watch();
  }

  stop(): void {
    this.stopped = true;
    this.abort?.abort();
    if (this.timer) clearTimeout(this.timer);
    this.setState('stopped');
  }

  private now(): Date {
    return this.opts.now?.() ?? this.t.clusterNow();
  }

  private setState(s: WatchState, detail?: string): void {
    this.state = s;
    this.opts.onState?.(s, detail);
  }

  private emit(
    type: ObservedEvent<T>['type'],
    object: T,
    via: ObservedEvent<T>['via'],
    gapStartedAt?: Date,
  ): void {
    const now = this.now();
    const floor = this.opts.floor?.(object) ?? null;
    const observedAt = floor !== null && floor > now.getTime() ? new Date(floor) : now;
    this.opts.onEvent({ type, object, observedAt, via, gapStartedAt });
  }

  private async relist(reconcile: boolean): Promise<void> {
    this.setState('listing');
    const listed = await listResource<T>(this.t, this.rt, {
      namespace: this.opts.namespace,
      labelSelector: this.opts.labelSelector,
      fieldSelector: this.opts.fieldSelector,
    });
    this.rejected = listed.rejected.length;
    const gap = this.lastContact;
    const seen = new Set<string>();
    for (const item of listed.items) {
      const k = keyOf(item);
      seen.add(k);
      const before = this.known.get(k);
      this.known.set(k, item);
      if (!reconcile) this.emit('ADDED', item, 'list');
      else if (!before) this.emit('ADDED', item, 'reconcile', gap);
      else if (before.metadata.resourceVersion !== item.metadata.resourceVersion) {
        this.emit('MODIFIED', item, 'reconcile', gap);
      }
    }
    if (reconcile) {
      for (const [k, obj] of this.known) {
        if (!seen.has(k)) {
          this.known.delete(k);
          this.emit('DELETED', obj, 'reconcile', gap);
        }
      }
    }
    this.resourceVersion = listed.resourceVersion;
    this.lastContact = this.now();
  }

  private scheduleRetry(why: string, relist: boolean): void {
    if (this.stopped) return;
    const [first, cap] = this.opts.backoffMs ?? [500, 30_000];
    const delay = Math.min(cap, first * 2 ** Math.min(this.failures, 10));
    this.failures++;
    this.setState('retrying', why);
    this.timer = setTimeout(() => {
      const next = relist ? this.relist(true) : Promise.resolve();
      next.then(
        () => this.watch(),
        (e: unknown) => this.scheduleRetry(`relist failed: ${(e as Error).message}`, true),
      );
    }, delay);
  }

  private watch(): void {
    if (this.stopped) return;
    let expired = false;
    const path = collectionPath(this.rt, this.opts.namespace);
    const w = new Watch(this.kc);
    // counted, never throttled: client-go leaves watches out of its rate limiter too
    budgetOf(this.kc).countWatch();
    this.setState('watching');
    w.watch(
      path,
      {
        resourceVersion: this.resourceVersion || undefined,
        allowWatchBookmarks: true,
        labelSelector: this.opts.labelSelector,
        fieldSelector: this.opts.fieldSelector,
        timeoutSeconds: 300 + Math.floor(Math.random() * 60),
      },
      (phase: string, obj: unknown) => {
        const object = obj as T & { code?: number; kind?: string };
        this.lastContact = this.now();
        if (phase === 'ERROR') {
          if (object.code === 410) expired = true;
          return;
        }
        const rv = object.metadata?.resourceVersion;
        if (rv) this.resourceVersion = rv;
        if (phase === 'BOOKMARK') return;
        this.failures = 0;
        const k = keyOf(object);
        if (phase === 'DELETED') {
          this.known.delete(k);
          this.emit('DELETED', object, 'watch');
        } else if (phase === 'ADDED' || phase === 'MODIFIED') {
          this.known.set(k, object);
          this.emit(phase, object, 'watch');
        }
      },
      (err: unknown) => {
        if (this.stopped) return;
        const status = (err as { statusCode?: number } | undefined)?.statusCode;
        if (expired || status === 410) {
          this.scheduleRetry('resourceVersion expired (410 Gone): relisting', true);
        } else if (err) {
          this.scheduleRetry(`watch failed: ${(err as Error).message ?? String(err)}`, false);
        } else {
          // normal end (timeoutSeconds or the server closed it): resume at once
          this.failures = 0;
          this.watch();
        }
      },
    ).then(
      (ac) => {
        this.abort = ac;
        if (this.stopped) ac.abort();
      },
      (e: unknown) => {
        const msg = isKubeError(e) ? e.message : (e as Error).message;
        this.scheduleRetry(`watch could not start: ${msg}`, false);
      },
    );
  }
}
