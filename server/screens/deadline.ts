/**
 * A deadline per view: a view answers within MESHDX_VIEW_DEADLINE_MS with what it has and names
 * what is missing or late, never a page that hangs for as long as a slow API server takes.
 *
 * A view waits on its parts through one ViewDeadline: `within` gives up on a part it can do
 * without (the part is then listed as late in the answer), `need` on one it cannot (the view
 * then answers 503 naming that part, with Retry-After, never a view of zeros). The work itself
 * goes on: a list still running when the view answered fills the cache for the next request.
 */
import { RequestError } from '../../lib/api/request-error';
import type { LatePart } from '../../lib/api/late';
import { defineScreen, type ClusterRuntime } from '../runtime/runtime';
import { listEndsAfter, type ListPace } from '../../lib/kube/list-eta';

export type Within<T> = { ok: true; value: T } | { ok: false; late: LatePart };

const TIMED_OUT = Symbol('late');

/**
 * What a view keeps of its deadline to build its answer once it stops waiting (a tenth, at most
 * 2 s): with every view asked at once on a busy server, assembling the answers after the last
 * wait took about 2 s, so views that waited the whole deadline answered past it.
 */
export function answerMarginMs(deadlineMs: number): number {
  return Math.min(2_000, Math.round(deadlineMs / 10));
}

export class ViewDeadline {
  private readonly started = Date.now();
  readonly late: LatePart[] = [];

  constructor(
    /** The view, as its title says (in the messages). */
    readonly view: string,
    readonly deadlineMs: number,
    private readonly now: () => number = Date.now,
    /** Of the deadline, what is kept to build the answer after the waits (answerMarginMs). */
    private readonly marginMs: number = answerMarginMs(deadlineMs),
  ) {}

  /** Milliseconds left to wait (never below 0): the deadline less the answer's margin. */
  remaining(): number {
    return Math.max(0, this.deadlineMs - this.marginMs - (this.now() - this.started));
  }

  /**
   * The part's value, or `late` once the deadline passes first (noted in `late`). A part that
   * fails fails here as it would without a deadline.
   */
  async within<T>(part: string, work: Promise<T>, detail?: () => string): Promise<Within<T>> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
      timer = setTimeout(() => resolve(TIMED_OUT), this.remaining());
      timer.unref?.();
    });
    try {
      const r = await Promise.race([work, timeout]);
      if (r !== TIMED_OUT) return { ok: true, value: r as T };
    } finally {
      if (timer) clearTimeout(timer);
    }
    // the work goes on; its failure later must not be an unhandled rejection
    work.catch(() => undefined);
    const late: LatePart = {
      part,
      detail: `not read within the ${this.deadlineMs} ms deadline${detail ? `: ${detail()}` : ''}`,
    };
    this.late.push(late);
    return { ok: false, late };
  }

  /**
   * As `within`, waiting at most `share` of the time left: for a part the view does well
   * without when it is slow (the rest of the view still needs its time).
   */
  async withinShare<T>(
    part: string,
    work: Promise<T>,
    share: number,
    detail?: () => string,
  ): Promise<Within<T>> {
    // a share of what is left to wait: the margin is kept already
    const sub = new ViewDeadline(this.view, Math.round(this.remaining() * share), this.now, 0);
    const r = await sub.within(part, work, detail);
    if (r.ok) return r;
    r.late.detail = `not in after ${sub.deadlineMs} ms (its share of the ${this.deadlineMs} ms deadline)${detail ? `: ${detail()}` : ''}`;
    this.late.push(r.late);
    return r;
  }

  /**
   * The part's value by the deadline; past it, the value the last read of the same list gave
   * (any view's, kept in `reads` under `key`), named as late with its age, while this read goes
   * on and fills `reads` for the next request. With no earlier read: as `need`.
   */
  async needOrLast<T>(
    part: string,
    reads: LastReads,
    key: string,
    work: Promise<T>,
    detail?: () => string,
  ): Promise<T> {
    const tracked = reads.track(key, work);
    const r = await this.within(part, tracked, detail);
    if (r.ok) return r.value;
    const last = reads.last<T>(key);
    if (!last) return this.fail();
    const ageS = Math.max(0, Math.round((this.now() - last.at) / 1000));
    r.late.detail = `${r.late.detail}; shown as read ${ageS} s before (a new read is still running)`;
    return last.value;
  }

  /** The part's value; past the deadline, a 503 naming the part (the view cannot do without it). */
  async need<T>(part: string, work: Promise<T>, detail?: () => string): Promise<T> {
    const r = await this.within(part, work, detail);
    if (r.ok) return r.value;
    return this.fail();
  }

  private async fail(): Promise<never> {
    // the other parts waited on share the deadline and time out in the same moment: let them
    // be noted, so the answer names everything that is missing, not only the first
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw lateError(this.view, this.late, this.deadlineMs);
  }
}

/**
 * The last value each shared read gave (namespaces, services, Istio config...), per runtime: a
 * view whose own read is late answers with it, named as such, instead of a 503.
 */
export class LastReads {
  private readonly values = new Map<string, { at: number; value: unknown }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** `work`, recording its value under `key` when it comes in (whenever that is). */
  track<T>(key: string, work: Promise<T>): Promise<T> {
    return work.then((value) => {
      this.values.set(key, { at: this.now(), value });
      return value;
    });
  }

  last<T>(key: string): { at: number; value: T } | null {
    const v = this.values.get(key);
    return v ? { at: v.at, value: v.value as T } : null;
  }
}

const lastReadsScreen = defineScreen('last-reads', () => new LastReads());

/** The runtime's last reads (one per cluster runtime, dropped with it). */
export function lastReads(rt: ClusterRuntime): LastReads {
  return rt.screen(lastReadsScreen);
}

/** 503 with Retry-After: the view could not be made by its deadline, and why. */
export function lateError(
  view: string,
  late: readonly LatePart[],
  deadlineMs: number,
): RequestError {
  return new RequestError(
    503,
    'VIEW_LATE',
    `${view} answered at its ${deadlineMs} ms deadline without ${late.map((l) => `${l.part} (${l.detail})`).join('; ')}`,
    'The API server answers slowly; what was asked goes on and the view is shown as soon as it is in (it asks again by itself). MESHDX_VIEW_DEADLINE_MS sets the deadline.',
    { 'Retry-After': '5' },
  );
}

/** How far the runtime's pod list has got, for a late part's detail. */
export function podListDetail(rt: ClusterRuntime): string {
  const s = rt.pods.currentStatus;
  if (s.listed) return 'pods listed';
  const p = s.progress;
  const read = `${p.objects.toLocaleString('en-US')} pods read in ${p.pages} page(s)${p.remaining !== null ? `, about ${p.remaining.toLocaleString('en-US')} to go` : ''}`;
  return `the pod list is still running (${read})${s.lastError ? `; last error: ${s.lastError}` : ''}`;
}

/**
 * The runtime's pods for a view: once listed, or, while the first list of a big cluster is
 * still running (a restart), after MESHDX_FIRST_ANSWER_MS (or as soon as the list's pace says it
 * cannot end by then), the pods read so far, with a late
 * part that says how far the list got (the view then says it shows part of the cluster, and
 * asks again). With no page read by then, the list is needed as before: by the deadline, or a
 * 503 naming how far it got.
 */
export async function podsSoFar(
  rt: ClusterRuntime,
  deadline: ViewDeadline,
): Promise<LatePart | null> {
  rt.start();
  if (rt.pods.currentStatus.listed) return null;
  const wait = Math.min(rt.settings.MESHDX_FIRST_ANSWER_MS, deadline.remaining());
  if (await firstListWithin(rt.pods, wait)) return null;
  if (rt.pods.currentStatus.progress.objects > 0 && !rt.pods.currentStatus.listed) {
    const part: LatePart = {
      part: 'pods',
      detail: `${podListDetail(rt)}: shown are the pods read so far; the view fills in as the list goes on`,
    };
    deadline.late.push(part);
    return part;
  }
  await deadline.need('pods', rt.pods.whenListed(), () => podListDetail(rt));
  return null;
}

/** A feed's first list, as far as a view waits for it. */
export interface FirstList {
  currentStatus: { listed: boolean; progress: ListPace };
  whenListed(): Promise<void>;
}

/**
 * Waits for a feed's first list for at most `waitMs`, and no longer once the list, at the pace
 * of its pages so far, cannot end by then (a restart at 50,000 pods: its first page says some
 * 40 s are left, so the view answers from that page instead of waiting out `waitMs` for
 * nothing). true once listed; false when the view goes on without it. A failing list fails here.
 */
export async function firstListWithin(
  feed: FirstList,
  waitMs: number,
  pollMs = 50,
): Promise<boolean> {
  if (feed.currentStatus.listed) return true;
  const until = Date.now() + waitMs;
  let timer: NodeJS.Timeout | undefined;
  const notBy = new Promise<false>((resolve) => {
    const check = () => {
      const now = Date.now();
      if (now >= until || listEndsAfter(feed.currentStatus.progress, now, until))
        return resolve(false);
      timer = setTimeout(check, Math.min(pollMs, until - now));
      timer.unref?.();
    };
    check();
  });
  const listed = feed.whenListed().then(() => true as const);
  try {
    const r = await Promise.race([listed, notBy]);
    // the list goes on; its failure later must not be an unhandled rejection
    if (!r) listed.catch(() => undefined);
    return r;
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/**
 * Waits, within `deadline`, for the runtime's own first pod list (a user's runtime: the history
 * it shows is gated on that list, server/runtime/history-gate.ts). A refused or failing list
 * fails here with its error; one still running at the deadline is the 503 naming it.
 */
export async function ownPodList(rt: ClusterRuntime, deadline: ViewDeadline): Promise<void> {
  rt.start();
  await deadline.need('your pod list', rt.pods.whenListed(), () => podListDetail(rt));
}

/** The deadline of a view on a runtime (MESHDX_VIEW_DEADLINE_MS). */
export function viewDeadline(rt: ClusterRuntime, view: string): ViewDeadline {
  return new ViewDeadline(view, rt.settings.MESHDX_VIEW_DEADLINE_MS);
}
