import type { SimClock } from './types';

interface Job {
  at: number;
  seq: number;
  fn: () => void;
}

export interface ClockOptions {
  /** Real mode only: simulated ms per wall ms (default 1). */
  speed?: number;
}

/** Earliest first; equal times run in the order they were scheduled. */
function before(a: Job, b: Job): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/** A small binary heap of jobs, so that thousands of scheduled callbacks stay cheap. */
class JobQueue {
  private readonly heap: Job[] = [];

  get size(): number {
    return this.heap.length;
  }

  peek(): Job | undefined {
    return this.heap[0];
  }

  push(job: Job): void {
    const h = this.heap;
    h.push(job);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p] as Job;
      if (!before(job, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = job;
  }

  pop(): Job | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      let best = last;
      const left = h[l];
      const right = h[r];
      if (left !== undefined && before(left, best)) {
        m = l;
        best = left;
      }
      if (right !== undefined && before(right, best)) m = r;
      if (m === i) break;
      h[i] = h[m] as Job;
      i = m;
    }
    h[i] = last;
    return top;
  }

  clear(): void {
    this.heap.length = 0;
  }
}

/**
 * Simulated time. `'real'`: now() = start instant + wall time elapsed x speed (+ whatever advance()
 * added); due callbacks run from a timer. `{ fixed }`: now() stands still until advance(ms), which
 * runs every callback that becomes due in time order (callbacks may schedule more, and those run
 * too when they fall inside the advanced window). A callback that throws does not stop the others.
 */
export function createClock(spec: 'real' | { fixed: Date }, opts: ClockOptions = {}): SimClock {
  const speed = opts.speed !== undefined && opts.speed > 0 ? opts.speed : 1;
  const mode: 'real' | 'fixed' = spec === 'real' ? 'real' : 'fixed';
  const wallStart = Date.now();
  const simStart = spec === 'real' ? wallStart : spec.fixed.getTime();
  let fixedNow = simStart;
  let offset = 0;
  let seq = 0;
  let draining = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const queue = new JobQueue();

  const nowMs = (): number =>
    mode === 'fixed' ? fixedNow : simStart + (Date.now() - wallStart) * speed + offset;

  /** Run every job due at or before `limit`; in fixed mode time moves to each job's instant. */
  function drain(limit: () => number): void {
    if (draining) return;
    draining = true;
    try {
      for (;;) {
        const next = queue.peek();
        if (next === undefined || next.at > limit() || stopped) break;
        queue.pop();
        if (mode === 'fixed' && next.at > fixedNow) fixedNow = next.at;
        try {
          next.fn();
        } catch (err) {
          // A broken scenario step must not freeze the clock; report it where a human sees it.
          console.error('[sim clock] scheduled callback failed:', err);
        }
      }
    } finally {
      draining = false;
    }
  }

  function arm(): void {
    if (mode !== 'real' || stopped) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const next = queue.peek();
    if (next === undefined) return;
    const delay = Math.max(0, Math.ceil((next.at - nowMs()) / speed));
    timer = setTimeout(
      () => {
        timer = undefined;
        drain(nowMs);
        arm();
      },
      Math.min(delay, 2 ** 31 - 1),
    );
    if (typeof timer === 'object' && timer !== null && 'unref' in timer) timer.unref();
  }

  return {
    mode,
    now: () => new Date(nowMs()),
    schedule(at: Date, fn: () => void): void {
      if (stopped) return;
      seq += 1;
      queue.push({ at: at.getTime(), seq, fn });
      if (at.getTime() <= nowMs()) drain(nowMs);
      arm();
    },
    advance(ms: number): void {
      if (ms < 0 || !Number.isFinite(ms)) return;
      if (mode === 'fixed') {
        const target = fixedNow + ms;
        drain(() => target);
        if (!stopped) fixedNow = Math.max(fixedNow, target);
      } else {
        offset += ms;
        drain(nowMs);
        arm();
      }
    },
    stop(): void {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      queue.clear();
    },
  };
}
