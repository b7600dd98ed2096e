/**
 * A bounded, in-order history of store changes (the simulator's etcd watch cache). Once full, the
 * oldest record is dropped and remembered as the compaction point: a watch that resumes from a
 * resourceVersion older than that point has missed changes and must get 410 Gone.
 */
export class RingHistory<T extends { rv: number }> {
  private readonly buf: (T | undefined)[];
  private start = 0;
  private size = 0;
  private compactedRv = 0;

  /** `startRv`: resuming from before it is 410 Gone (a store continuing after a restart). */
  constructor(
    readonly capacity: number,
    startRv = 0,
  ) {
    this.compactedRv = startRv;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`history capacity must be a positive integer, got ${capacity}`);
    }
    this.buf = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** resourceVersion of the newest record dropped so far (0 when nothing was dropped). */
  get compactedThrough(): number {
    return this.compactedRv;
  }

  push(rec: T): void {
    if (this.size === this.capacity) {
      const dropped = this.buf[this.start];
      if (dropped !== undefined) this.compactedRv = dropped.rv;
      this.buf[this.start] = rec;
      this.start = (this.start + 1) % this.capacity;
      return;
    }
    this.buf[(this.start + this.size) % this.capacity] = rec;
    this.size += 1;
  }

  /**
   * Records with rv greater than `rv`, oldest first, or 'expired' when some of them were already
   * dropped (rv is older than the compaction point).
   */
  since(rv: number): T[] | 'expired' {
    if (rv < this.compactedRv) return 'expired';
    const out: T[] = [];
    // Binary search for the first record newer than rv (records are in rv order).
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const rec = this.at(mid);
      if (rec !== undefined && rec.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.size; i += 1) {
      const rec = this.at(i);
      if (rec !== undefined) out.push(rec);
    }
    return out;
  }

  private at(i: number): T | undefined {
    return this.buf[(this.start + i) % this.capacity];
  }
}
