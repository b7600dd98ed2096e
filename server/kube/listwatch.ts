import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { KubeList, KubeObject } from '../../lib/kube/types';
import { isKubeError, KubeError } from './errors';
import { collectionPath, screenItems, type Listed, type ResourceType } from './resources';
import { budgetOf } from './budget';
import type { KubeTransport } from './transport';
import { objectKeyOf } from '../../lib/refs/object-ref';

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
  /** What is kept of each object (see lib/kube/trim.ts), applied once as it arrives. */
  trim?: (object: T) => T;
}

/**
 * Objects per page of a (re)list. A list is read in pages (`limit`/`continue`, as client-go's
 * pager and kubectl read them) so that no single answer has to hold the whole cluster: 50,000
 * pods of a real cluster with managedFields are some 400 MB of JSON, past what one response may
 * be (the transport's cap). A page is parsed and trimmed as soon as it arrives, and the next one
 * is asked for while it is parsed. 500 is client-go's reflector page: a page's raw objects then
 * die young (in V8's new space) instead of being promoted with the trimmed ones and waiting for a
 * full collection; measured at 20,000 sidecar pods, the server's peak resident set was some
 * 150 MB lower than with pages of 2,000, for a list as fast.
 */
export const LIST_PAGE_SIZE = 500;
/** Time allowed for one page. */
const PAGE_TIMEOUT_MS = 60_000;

export interface ListProgress {
  /** Pages read of the list under way (or of the last one). */
  pages: number;
  /** Objects read so far. */
  objects: number;
  /** Server's count of what remains, when it says (remainingItemCount). */
  remaining: number | null;
  /** When the list under way (or the last one) was started (ms since the epoch), null before. */
  startedAt: number | null;
}

/**
 * The continue token of a list page, read from the head of its body (a list's metadata comes
 * before its items, as the API server writes it), so the next page can be asked for while this
 * one is parsed. Null when the head does not carry one where expected: the caller then waits
 * for the parse.
 */
export function continueOfHead(body: string): string | null {
  const items = body.indexOf('"items"');
  const head = body.slice(0, items < 0 ? Math.min(body.length, 4096) : items);
  const m = /"continue"\s*:\s*"([^"\\]*)"/.exec(head);
  return m?.[1] || null;
}

type ListPage<T extends KubeObject> = KubeList<T> & {
  metadata?: { continue?: string; remainingItemCount?: number; resourceVersion?: string };
};

/**
 * Every object of a collection, page by page, each one trimmed as its page arrives; the next
 * page is asked for while this one is parsed. A continue token the server no longer honours
 * (410 Expired: the list took longer than its history) starts the list over without paging, as
 * client-go's pager falls back to a full list.
 */
export async function listPaged<T extends KubeObject>(
  t: KubeTransport,
  rt: ResourceType,
  opts: {
    namespace?: string;
    labelSelector?: string;
    fieldSelector?: string;
    trim?: (o: T) => T;
    pageSize?: number;
    progress?: ListProgress;
    /**
     * Hears each page's objects (trimmed) as soon as the page is read. A list the server
     * expires midway starts over: its pages are then heard again from the first.
     */
    onPage?: (items: readonly T[]) => void;
  } = {},
): Promise<Listed<T>> {
  const path = collectionPath(rt, opts.namespace);
  const progress = opts.progress ?? { pages: 0, objects: 0, remaining: null, startedAt: null };
  const reset = () => {
    progress.pages = 0;
    progress.objects = 0;
    progress.remaining = null;
    progress.startedAt = Date.now();
  };
  reset();
  const items: T[] = [];
  const rejected: unknown[] = [];
  let resourceVersion = '';
  let limit: number | undefined = opts.pageSize ?? LIST_PAGE_SIZE;
  const ask = (cont: string | undefined) => {
    const p = t.request(path, {
      query: {
        labelSelector: opts.labelSelector,
        fieldSelector: opts.fieldSelector,
        limit,
        continue: cont,
      },
      timeoutMs: PAGE_TIMEOUT_MS,
    });
    // a page asked ahead and then not used must not be an unhandled rejection
    p.catch(() => undefined);
    return { cont, body: p };
  };
  let next: ReturnType<typeof ask> | null = ask(undefined);
  while (next) {
    const asked: ReturnType<typeof ask> = next;
    next = null;
    let body: string;
    try {
      body = (await asked.body).body;
    } catch (e) {
      if (asked.cont !== undefined && isKubeError(e) && e.status === 410) {
        items.length = 0;
        rejected.length = 0;
        reset();
        limit = undefined;
        next = ask(undefined);
        continue;
      }
      throw e;
    }
    const ahead = continueOfHead(body);
    if (ahead !== null) next = ask(ahead);
    let list: ListPage<T>;
    try {
      list = JSON.parse(body) as ListPage<T>;
    } catch {
      throw new KubeError('protocol', `${path} did not return JSON`);
    }
    body = '';
    if (!list || !Array.isArray(list.items)) {
      throw new KubeError('protocol', `${path} did not return a list`);
    }
    const screened = screenItems<T>(rt, list.items);
    const page = opts.trim ? screened.items.map(opts.trim) : screened.items;
    for (const item of page) items.push(item);
    for (const r of screened.rejected) rejected.push(r);
    // every page of one list carries the resourceVersion of its first: the snapshot's
    if (progress.pages === 0) resourceVersion = list.metadata?.resourceVersion ?? '';
    progress.pages++;
    progress.objects = items.length;
    progress.remaining = list.metadata?.remainingItemCount ?? null;
    opts.onPage?.(page);
    const cont = list.metadata?.continue || undefined;
    if (cont !== ahead) {
      // the head said otherwise than the parsed page (never, from a real server): follow the page
      next = cont === undefined ? null : ask(cont);
    }
  }
  return { items, rejected, resourceVersion };
}

const keyOf = (o: KubeObject) => o.metadata.uid || objectKeyOf(o, '');

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
  /** Objects of the last list whose shape meshdx cannot read (left out, see screenItems). */
  rejected = 0;
  /** Those objects themselves (few: the Findings report names each one). */
  rejectedObjects: unknown[] = [];
  /** How far the list under way (or the last one) got. */
  readonly progress: ListProgress = { pages: 0, objects: 0, remaining: null, startedAt: null };

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
    // a first list that failed midway was heard in part: the next attempt compares with that
    await this.relist(this.known.size > 0);
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
    // The first list is heard page by page, so that the views can answer from the pages read
    // while a big cluster's list goes on; a reconciling relist is compared whole (what it lacks
    // was deleted), so it is heard once complete.
    const listed = await listPaged<T>(this.t, this.rt, {
      namespace: this.opts.namespace,
      labelSelector: this.opts.labelSelector,
      fieldSelector: this.opts.fieldSelector,
      trim: this.opts.trim,
      progress: this.progress,
      ...(reconcile
        ? {}
        : {
            onPage: (page: readonly T[]) => {
              for (const item of page) {
                this.known.set(keyOf(item), item);
                this.emit('ADDED', item, 'list');
              }
            },
          }),
    });
    this.rejected = listed.rejected.length;
    this.rejectedObjects = listed.rejected;
    const gap = this.lastContact;
    const seen = new Set<string>();
    for (const item of listed.items) {
      const k = keyOf(item);
      seen.add(k);
      if (!reconcile) continue; // heard page by page above
      const before = this.known.get(k);
      this.known.set(k, item);
      if (!before) this.emit('ADDED', item, 'reconcile', gap);
      else if (before.metadata.resourceVersion !== item.metadata.resourceVersion) {
        this.emit('MODIFIED', item, 'reconcile', gap);
      }
    }
    // what was heard but is not in the list is gone (after a relist; or heard in the pages of a
    // first list the server expired midway, before it started over)
    for (const [k, obj] of this.known) {
      if (!seen.has(k)) {
        this.known.delete(k);
        this.emit('DELETED', obj, 'reconcile', gap);
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
        const kept = this.opts.trim ? this.opts.trim(object) : object;
        if (phase === 'DELETED') {
          this.known.delete(k);
          this.emit('DELETED', kept, 'watch');
        } else if (phase === 'ADDED' || phase === 'MODIFIED') {
          this.known.set(k, kept);
          this.emit(phase, kept, 'watch');
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
