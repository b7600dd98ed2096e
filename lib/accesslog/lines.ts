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

export type LineSink = (bytes: Uint8Array, start: number, end: number) => void;

export function createLineSplitter(onLine: LineSink): LineSplitter {
  let carry: Uint8Array | null = null;
  let lines = 0;

  function push(chunk: Uint8Array): void {
    let s = 0;
    if (carry) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        carry = concat(carry, chunk, chunk.length);
        return;
      }
      const whole = concat(carry, chunk, nl);
      carry = null;
      lines++;
      onLine(whole, 0, whole.length);
      s = nl + 1;
    }
    const n = chunk.length;
    for (;;) {
      const nl = chunk.indexOf(10, s);
      if (nl < 0) break;
      lines++;
      onLine(chunk, s, nl);
      s = nl + 1;
    }
    // copy: the caller may reuse its buffer for the next chunk
    if (s < n) carry = new Uint8Array(chunk.subarray(s));
  }

  function end(): void {
    if (!carry) return;
    const last = carry;
    carry = null;
    lines++;
    onLine(last, 0, last.length);
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
