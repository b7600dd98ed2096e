import type { SimLogs } from './contracts';
import { podKey } from '../../../lib/refs/pod-ref';

export interface LogLine {
  time: Date;
  line: string;
}

export interface SimLogsImpl extends SimLogs {
  /** Be told of lines appended to one container from now on (for follow=true). */
  subscribe(
    namespace: string,
    pod: string,
    container: string,
    fn: (l: LogLine) => void,
  ): () => void;
  /** Lines dropped so far because a container exceeded its cap. */
  droppedLines(): number;
}

export const DEFAULT_MAX_LINES = 5_000;

/** A container's log: a ring of its last `max` lines. */
class LineRing {
  private readonly buf: LogLine[] = [];
  private start = 0;
  constructor(private readonly max: number) {}

  push(l: LogLine): boolean {
    if (this.buf.length < this.max) {
      this.buf.push(l);
      return false;
    }
    this.buf[this.start] = l;
    this.start = (this.start + 1) % this.max;
    return true;
  }

  all(): LogLine[] {
    return [...this.buf.slice(this.start), ...this.buf.slice(0, this.start)];
  }
}

const keyOf = (ns: string, pod: string, c: string): string => `${podKey(ns, pod)}/${c}`;

/**
 * In-memory container logs with bounded memory: each container keeps its last `maxLines` lines
 * (older ones are dropped and counted). Lines are kept in append order, as a kubelet log file is.
 */
export function createSimLogs(opts: { maxLinesPerContainer?: number } = {}): SimLogsImpl {
  const max = Math.max(1, opts.maxLinesPerContainer ?? DEFAULT_MAX_LINES);
  const rings = new Map<string, LineRing>();
  const subs = new Map<string, Set<(l: LogLine) => void>>();
  let dropped = 0;

  return {
    append(namespace, pod, container, time, line) {
      const key = keyOf(namespace, pod, container);
      let ring = rings.get(key);
      if (ring === undefined) {
        ring = new LineRing(max);
        rings.set(key, ring);
      }
      // One entry per line: a multi-line append is several log lines, as the kubelet sees them.
      for (const part of line.replace(/\r?\n$/, '').split(/\r?\n/)) {
        const l = { time: new Date(time.getTime()), line: part };
        if (ring.push(l)) dropped += 1;
        for (const fn of subs.get(key) ?? []) fn(l);
      }
    },
    read(namespace, pod, container, o = {}) {
      const ring = rings.get(keyOf(namespace, pod, container));
      if (ring === undefined) return [];
      let lines = ring.all();
      const since = o.sinceTime?.getTime();
      if (since !== undefined) lines = lines.filter((l) => l.time.getTime() >= since);
      if (o.tailLines !== undefined && o.tailLines >= 0) {
        lines = o.tailLines === 0 ? [] : lines.slice(-o.tailLines);
      }
      return lines;
    },
    subscribe(namespace, pod, container, fn) {
      const key = keyOf(namespace, pod, container);
      let set = subs.get(key);
      if (set === undefined) {
        set = new Set();
        subs.set(key, set);
      }
      set.add(fn);
      return () => {
        set.delete(fn);
        if (set.size === 0) subs.delete(key);
      };
    },
    droppedLines: () => dropped,
  };
}
