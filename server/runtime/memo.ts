/**
 * The one single-flight + time-to-live cache every screen uses: while a computation runs, every
 * caller joins it; a finished answer is served for `ttlMs` (navigating back is instant); a
 * failure is not kept (the next caller tries again). Lives in a cluster runtime, so a context
 * switch or a cluster change drops it with everything else.
 */
export class Memo<T> {
  private job: Promise<T> | null = null;
  private done: { at: number; value: T } | null = null;
  /** Bumped by clear(): a computation started before it does not fill the cache. */
  private epoch = 0;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The finished answer when it is younger than `maxAgeMs` (default the TTL), else null. */
  fresh(maxAgeMs = this.ttlMs): T | null {
    return this.done && this.now() - this.done.at < maxAgeMs ? this.done.value : null;
  }

  /** The computation now running, if any. */
  running(): Promise<T> | null {
    return this.job;
  }

  /**
   * The fresh answer (unless `refresh`), else the running computation, else a new one.
   * `compute` is only called when a new computation starts.
   */
  get(compute: () => Promise<T>, opts: { refresh?: boolean } = {}): Promise<T> {
    const fresh = opts.refresh ? null : this.fresh();
    if (fresh !== null) return Promise.resolve(fresh);
    return this.start(compute);
  }

  /** Joins the running computation or starts one, whatever the cached answer's age. */
  start(compute: () => Promise<T>): Promise<T> {
    if (this.job) return this.job;
    let job: Promise<T>;
    const epoch = this.epoch;
    try {
      job = compute();
    } catch (e) {
      return Promise.reject(e);
    }
    const tracked = job
      .then((value) => {
        if (this.epoch === epoch) this.done = { at: this.now(), value };
        return value;
      })
      .finally(() => {
        if (this.job === tracked) this.job = null;
      });
    this.job = tracked;
    return tracked;
  }

  /**
   * Forgets the answer and the running computation (its callers still get its answer, but it is
   * not kept): the next caller starts anew.
   */
  clear(): void {
    this.epoch++;
    this.job = null;
    this.done = null;
  }
}
