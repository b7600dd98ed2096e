/**
 * How far the API server's clock is ahead of this process's, learned from the `Date` header of
 * its answers. Pod status times (startedAt, lastTransitionTime) come from the cluster's clocks,
 * while the moment meshdx sees a change (a container turning ready, which no field timestamps)
 * comes from its own: a skewed host would put one against the other by the skew. Observation
 * times are therefore taken on the cluster's clock: local time plus this offset.
 *
 * A `Date` header has whole seconds, so one answer says only that the offset lies in
 * [date - received, date + 1000 - sent]. The bounds of successive answers are intersected, which
 * narrows the estimate to about the round trip; when they stop overlapping the cluster's clock
 * has jumped (or been set), and the estimate starts again from the newest answer.
 */
export class ClockOffset {
  private low = -Infinity;
  private high = Infinity;
  private samples = 0;
  private said: number | null = null;

  /** One answer: its `Date` header and the local times the request was sent and answered. */
  observe(dateHeader: string | undefined, sentAt: number, receivedAt: number): void {
    if (!dateHeader) return;
    const date = Date.parse(dateHeader);
    if (Number.isNaN(date) || receivedAt < sentAt) return;
    const low = date - receivedAt;
    const high = date + 1000 - sentAt;
    if (low > this.high || high < this.low) {
      this.low = low;
      this.high = high;
    } else {
      this.low = Math.max(this.low, low);
      this.high = Math.min(this.high, high);
    }
    this.samples++;
    this.said = date;
  }

  /**
   * The time the cluster's newest answer said it was (whole seconds), or null before any: what
   * the cluster itself last told, where `now()` adds the local time since.
   */
  lastSaid(): Date | null {
    return this.said === null ? null : new Date(this.said);
  }

  /** Best estimate in ms (0 before any answer with a `Date` header). */
  get ms(): number {
    return this.samples === 0 ? 0 : Math.round((this.low + this.high) / 2);
  }

  /** Half the width of the interval the offset is known to lie in (Infinity before any answer). */
  get uncertaintyMs(): number {
    return this.samples === 0 ? Infinity : (this.high - this.low) / 2;
  }

  /** Now, on the cluster's clock. */
  now(local: number = Date.now()): Date {
    return new Date(local + this.ms);
  }
}
