/**
 * Splits a byte stream into lines on '\n' without creating a string per line: each line is
 * handed over as (bytes, start, end), end excluding the '\n' (a '\r' before it stays; the
 * parser strips it). A line cut by a chunk boundary is copied once and handed over whole.
 * Line numbers are the order of the calls, counting from 1, as `grep -n` counts them; a last
 * line without '\n' is a line too.
 */
export interface LineSplitter {
  push(chunk: Uint8Array): void;
  end(): void;
  /** Lines handed over so far. */
  readonly lines: number;
}

/**
 * `cut` is true for a line longer than the splitter's limit: only its first maxLineBytes
 * bytes are handed over (the rest was never kept), for the caller to report it.
 */
export type LineSink = (bytes: Uint8Array, start: number, end: number, cut?: boolean) => void;

/** The longest line kept whole by default (1 MiB): far above any access-log line. */
export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/**
 * A line longer than maxLineBytes is handed over cut (see LineSink) as soon as its end is
 * found, and memory never holds more of it than the limit: a file without line breaks (a
 * binary, a huge JSON document given as a log) costs one pass, not a quadratic regrowth.
 */
export function createLineSplitter(
  onLine: LineSink,
  maxLineBytes = DEFAULT_MAX_LINE_BYTES,
): LineSplitter {
  let carry: Uint8Array | null = null;
  /** The line being carried is longer than the limit: its bytes past the limit are dropped. */
  let long = false;
  let lines = 0;

  function emit(bytes: Uint8Array, start: number, end: number, cut: boolean): void {
    lines++;
    if (!cut && end - start > maxLineBytes) onLine(bytes, start, start + maxLineBytes, true);
    else onLine(bytes, start, end, cut);
  }

  function keep(chunk: Uint8Array, from: number, to: number): void {
    const room = maxLineBytes - (carry ? carry.length : 0);
    if (to - from > room) long = true;
    const take = Math.max(0, Math.min(room, to - from));
    if (take === 0 && carry) return;
    // copy: the caller may reuse its buffer for the next chunk
    carry = carry
      ? concat(carry, chunk.subarray(from), take)
      : new Uint8Array(chunk.subarray(from, from + take));
  }

  function push(chunk: Uint8Array): void {
    let s = 0;
    if (carry) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        keep(chunk, 0, chunk.length);
        return;
      }
      keep(chunk, 0, nl);
      const whole = carry as Uint8Array;
      const cut = long;
      carry = null;
      long = false;
      emit(whole, 0, whole.length, cut);
      s = nl + 1;
    }
    const n = chunk.length;
    for (;;) {
      const nl = chunk.indexOf(10, s);
      if (nl < 0) break;
      emit(chunk, s, nl, false);
      s = nl + 1;
    }
    if (s < n) keep(chunk, s, n);
  }

  function end(): void {
    if (!carry) return;
    const last = carry;
    const cut = long;
    carry = null;
    long = false;
    emit(last, 0, last.length, cut);
  }

  return {
    push,
    end,
    get lines() {
      return lines;
    },
  };
}

function concat(a: Uint8Array, b: Uint8Array, bEnd: number): Uint8Array {
  const out = new Uint8Array(a.length + bEnd);
  out.set(a, 0);
  out.set(b.subarray(0, bEnd), a.length);
  return out;
}
