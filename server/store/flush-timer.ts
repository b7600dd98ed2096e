/**
 * When the history store commits a batch that is not full: once, `delayMs` after the first write
 * of the batch (a timer that never holds the process open). A commit made meanwhile cancels it.
 */
export class FlushTimer {
  private timer: NodeJS.Timeout | null = null;

  /** `flush` may throw: its error is the store's to keep, and the batch is retried later. */
  constructor(
    private readonly flush: () => void,
    private readonly delayMs: number,
  ) {}

  /** Starts the timer unless it runs or the delay is 0 (commits only when the batch is full). */
  schedule(): void {
    if (this.timer || this.delayMs <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        this.flush();
      } catch {
        // kept in lastError; the batch stays pending and is retried with the next write
      }
    }, this.delayMs);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
