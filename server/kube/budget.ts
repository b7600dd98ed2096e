/**
 * meshdx's own request budget against one API server, the way client-go keeps a controller's:
 *
 * - a token bucket (QPS and burst, like client-go's `flowcontrol.NewTokenBucketRateLimiter`):
 *   every request but a watch takes one token; with none left it waits its turn (FIFO), a
 *   view's lists and gets before the bulk reads of proxies and logs. Watches
 *   are long-running and left out, as client-go's `Request.Watch` leaves them out ("we
 *   specifically don't want to rate limit watches"); API Priority and Fairness also treats them
 *   apart once established.
 * - a cap on concurrent `pods/proxy` and `pods/portforward` calls for the whole runtime (not per
 *   scan), since each one holds a kubelet connection for up to its timeout.
 * - counts of what was asked, waited for, throttled (429) and retried, for /api/health and the
 *   line at the foot of each view.
 */
import type { ApiBudget, RequestKind } from '../../lib/api/budget';

export type { RequestKind } from '../../lib/api/budget';
export type BudgetStats = ApiBudget;

export interface BudgetSettings {
  /** Sustained requests per second (watches excluded). */
  qps: number;
  /** Requests allowed at once above the sustained rate. */
  burst: number;
  /** pods/proxy + pods/portforward calls in flight at once, runtime-wide. */
  proxyConcurrency: number;
}

/**
 * 50 QPS / 100 burst: kubectl's sustained rate (its default since Kubernetes 1.27) with a third
 * of its burst of 300; ten times client-go's controller default (5/10). A demo-sized mesh of a
 * few hundred proxies gets every view in seconds; beyond that the fleet belongs to Prometheus.
 */
export const DEFAULT_BUDGET: BudgetSettings = {
  qps: positive(process.env.MESHDX_API_QPS) ?? 50,
  burst: positive(process.env.MESHDX_API_BURST) ?? 100,
  proxyConcurrency: 32,
};

/** A budget setting from the environment (server/env.ts validates it for the server). */
function positive(v: string | undefined): number | undefined {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

type Clock = () => number;
type Sleep = (ms: number) => Promise<void>;

const realSleep: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Kinds a request path is counted under (what the API server's apiserver_request_total says). */
export function requestKind(method: string, pathname: string, watch: boolean): RequestKind {
  if (watch) return 'watch';
  if (/\/pods\/[^/]+\/proxy(\/|$)/.test(pathname)) return 'proxy';
  if (/\/pods\/[^/]+\/portforward$/.test(pathname)) return 'portforward';
  if (/\/pods\/[^/]+\/log$/.test(pathname)) return 'log';
  if (method !== 'GET') return 'other';
  const parts = pathname.split('/').filter(Boolean);
  // /api/v1/RES, /api/v1/namespaces/NS/RES, /apis/G/V/RES ... : an odd tail is a collection
  const rest = parts[0] === 'api' ? parts.slice(2) : parts[0] === 'apis' ? parts.slice(3) : [];
  if (rest.length === 0) return 'get';
  const tail = rest[0] === 'namespaces' && rest.length >= 3 ? rest.slice(2) : rest;
  return tail.length === 1 ? 'list' : 'get';
}

/** A token bucket (golang.org/x/time/rate semantics: reserve now, wait for the reservation). */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    private readonly now: Clock = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.qps);
    this.last = t;
  }

  /** Takes a token if a whole one is there now. */
  tryTake(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** How long (ms) until a whole token is there (0: now). */
  untilNext(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.max(1, Math.ceil(((1 - this.tokens) / this.qps) * 1000));
  }
}

/** A counting semaphore with a FIFO queue. */
class Slots {
  private used = 0;
  private readonly queue: (() => void)[] = [];
  constructor(readonly size: number) {}

  get inUse(): number {
    return this.used;
  }

  /** Resolves when a slot is taken; `waited` says whether it had to queue. */
  async take(): Promise<boolean> {
    if (this.used < this.size) {
      this.used++;
      return false;
    }
    await new Promise<void>((r) => this.queue.push(r));
    return true;
  }

  give(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.used--;
  }
}

const RATE_WINDOW_S = 10;

export class RequestBudget {
  readonly settings: BudgetSettings;
  private readonly bucket: TokenBucket;
  private readonly slots: Slots;
  private readonly counts: Record<RequestKind, number> = {
    list: 0,
    get: 0,
    watch: 0,
    proxy: 0,
    portforward: 0,
    log: 0,
    other: 0,
  };
  private throttledWaits = 0;
  private throttledMs = 0;
  private slotWaits = 0;
  private tooMany = 0;
  private retryAfterMs = 0;
  private retries = 0;
  private peakInFlight = 0;
  private peakQps = 0;
  /** Budgeted requests per whole second (epoch s -> count), the last RATE_WINDOW_S + 1 kept. */
  private readonly perSecond = new Map<number, number>();
  /** Requests waiting for a token, first asked first: a view's lists and gets. */
  private readonly waiting: (() => void)[] = [];
  /**
   * Bulk reads waiting (pods/proxy, port-forward, logs: a scan's hundreds of proxies), served
   * after every list and get waiting, as API Priority and Fairness gives a workload's bulk its own
   * lower level: a view's lists never queue behind a fleet scan.
   */
  private readonly waitingBulk: (() => void)[] = [];
  private handing = false;
  private readonly since: number;

  constructor(
    settings: Partial<BudgetSettings> = {},
    private readonly now: Clock = Date.now,
    private readonly sleep: Sleep = realSleep,
  ) {
    this.settings = { ...DEFAULT_BUDGET, ...settings };
    this.bucket = new TokenBucket(this.settings.qps, this.settings.burst, now);
    this.slots = new Slots(this.settings.proxyConcurrency);
    this.since = now();
  }

  /**
   * Waits until a request of `kind` may be sent (a token; for pods/proxy and port-forward also a
   * slot) and counts it. Returns the release to call when the request is over.
   */
  async acquire(kind: RequestKind): Promise<() => void> {
    const capped = kind === 'proxy' || kind === 'portforward';
    let release = () => undefined as void;
    if (capped) {
      if (await this.slots.take()) this.slotWaits++;
      this.peakInFlight = Math.max(this.peakInFlight, this.slots.inUse);
      let given = false;
      release = () => {
        if (given) return;
        given = true;
        this.slots.give();
      };
    }
    if (kind !== 'watch') {
      await this.token(capped || kind === 'log');
      this.noteSent();
    }
    this.counts[kind]++;
    return release;
  }

  /**
   * A token for one request, in the order asked. Waiters queue and one timer hands tokens out
   * as the bucket holds them at the moment it wakes: after an event loop that stalled, the
   * bucket holds at most its burst, so no window of t seconds ever sends more than
   * burst + QPS x t (a token reserved ahead for each waiter would let every waiter of the stall
   * go at once).
   */
  private async token(bulk: boolean): Promise<void> {
    const ahead = this.waiting.length + (bulk ? this.waitingBulk.length : 0);
    if (ahead === 0 && this.bucket.tryTake()) return;
    const asked = this.now();
    this.throttledWaits++;
    await new Promise<void>((resolve) => {
      (bulk ? this.waitingBulk : this.waiting).push(resolve);
      void this.handOut();
    });
    this.throttledMs += this.now() - asked;
  }

  private async handOut(): Promise<void> {
    if (this.handing) return;
    this.handing = true;
    try {
      while (this.waiting.length + this.waitingBulk.length > 0) {
        if (this.bucket.tryTake()) (this.waiting.shift() ?? this.waitingBulk.shift())?.();
        else await this.sleep(this.bucket.untilNext());
      }
    } finally {
      this.handing = false;
    }
  }

  /** A watch opened (by client-node's Watch): counted, never throttled. */
  countWatch(): void {
    this.counts.watch++;
  }

  /** A 429 answered: the Retry-After wait about to be made. */
  noteTooManyRequests(waitMs: number): void {
    this.tooMany++;
    this.retryAfterMs += waitMs;
  }

  noteRetry(): void {
    this.retries++;
  }

  private noteSent(): void {
    const s = Math.floor(this.now() / 1000);
    const n = (this.perSecond.get(s) ?? 0) + 1;
    this.perSecond.set(s, n);
    if (n > this.peakQps) this.peakQps = n;
    if (this.perSecond.size > RATE_WINDOW_S + 1) {
      for (const k of this.perSecond.keys()) if (k < s - RATE_WINDOW_S) this.perSecond.delete(k);
    }
  }

  stats(): BudgetStats {
    const s = Math.floor(this.now() / 1000);
    let recent = 0;
    for (const [k, n] of this.perSecond) if (k > s - RATE_WINDOW_S && k <= s) recent += n;
    return {
      ...this.settings,
      requests: { ...this.counts },
      throttledWaits: this.throttledWaits,
      throttledMs: this.throttledMs,
      slotWaits: this.slotWaits,
      tooManyRequests: this.tooMany,
      retryAfterMs: this.retryAfterMs,
      retries: this.retries,
      inFlightProxy: this.slots.inUse,
      peakInFlightProxy: this.peakInFlight,
      recentQps: Math.round((recent / RATE_WINDOW_S) * 10) / 10,
      peakQps: this.peakQps,
      since: new Date(this.since).toISOString(),
    };
  }
}

/**
 * The budget of the transport made from a KubeConfig. Port-forwards are opened by client-node
 * from the KubeConfig itself (not through KubeTransport.request); this is how they find the
 * runtime's budget without every caller having to carry it. It is kept on the KubeConfig under a
 * registered symbol, not in a module-level map: Next may load this module once per route bundle,
 * and every copy must find the same budget.
 */
const BUDGET = Symbol.for('meshdx.kube.requestBudget');

type Carrier = { [BUDGET]?: RequestBudget };

export function attachBudget(kc: object, budget: RequestBudget): void {
  (kc as Carrier)[BUDGET] = budget;
}

/** The budget attached to `kc`, or a budget of its own made on first use (same defaults). */
export function budgetOf(kc: object): RequestBudget {
  const c = kc as Carrier;
  let b = c[BUDGET];
  if (!b) {
    b = new RequestBudget();
    c[BUDGET] = b;
  }
  return b;
}
