import {
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_VALUE_CHARS,
  type JsonSplitterOptions,
  type StreamProblem,
} from '../json-stream';

/**
 * The byte twin of json-stream's createJsonSplitter, for `meshdx attribute`'s watch captures:
 * the same values, the same problems at the same lines and columns (columns in UTF-16 units, as
 * the text splitter counts them, for well-formed UTF-8), without decoding the file into a
 * string first. Values are handed over as byte ranges while the chunk they are in is alive, so
 * that a value wholly inside one chunk is never copied.
 *
 * A reader may offer `tryValue`: it reads a value where one starts (an object at depth 0) and
 * says where it ended, having checked what the splitter would check (balanced, nesting within
 * maxDepth, no `{` or `[` first on a line inside it); the splitter then goes on after it
 * without looking at its bytes. Where tryValue declines, the bytes are split here.
 *
 * Where the two splitters can differ: the size limit (maxValueChars) is checked where a chunk
 * ends, as the text splitter does, and chunks of bytes end elsewhere than chunks of text;
 * invalid UTF-8 outside strings is garbage in both, excerpted from its bytes here.
 */
export interface ByteValueSink {
  /** One complete value: bytes [start, end) of `bytes`, starting at 1-based line and column. */
  (bytes: Uint8Array, start: number, end: number, line: number, column: number): void;
}

/** Reads a value at b[s] within b[s, limit): its end, with its line count; or -1 to decline. */
export type TryValue = (b: Uint8Array, s: number, limit: number) => FastValue | null;
export interface FastValue {
  end: number;
  newlines: number;
  /** Index of the value's last '\n' (when newlines > 0). */
  lastNewline: number;
}

export interface ByteSplitter {
  /** Splits one chunk; values go to `sink` (or tryValue) before push returns. */
  push(chunk: Uint8Array, sink: ByteValueSink, problems: StreamProblem[]): void;
  end(problems: StreamProblem[]): void;
}

const NL = 10;
const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;
/** Bytes of garbage kept for its excerpt: 80 characters are at most 320 bytes of UTF-8. */
const GARBAGE_BYTES = 320;

export function createByteSplitter(
  options: JsonSplitterOptions = {},
  tryValue: TryValue | null = null,
): ByteSplitter {
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxValue = options.maxValueChars ?? DEFAULT_MAX_VALUE_CHARS;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const s = {
    line: 1,
    /** Bytes of this line before the current chunk, and how many fewer UTF-16 units they are. */
    carried: 0,
    carriedLess: 0,
    depth: 0,
    inString: false,
    escaped: false,
    skipping: false,
    start: { line: 0, column: 0 },
    /** The open value's bytes from chunks before this one, and their length in characters. */
    pending: [] as Uint8Array[],
    pendingChars: 0,
    garbage: false,
    garbageBytes: [] as number[],
    garbageAt: { line: 0, column: 0 },
    /** The first bytes of a possible byte order mark cut by a chunk's end. */
    held: null as Uint8Array | null,
  };

  const garbageProblem = (): StreamProblem => {
    const text = decoder.decode(Uint8Array.from(s.garbageBytes)).slice(0, 80).trim();
    return {
      ...s.garbageAt,
      reason: 'not-json',
      message: `text outside JSON: ${text}`,
      excerpt: text,
    };
  };

  function push(input: Uint8Array, sink: ByteValueSink, problems: StreamProblem[]): void {
    // one kind of array for every chunk (a Buffer is another): the readers stay monomorphic
    let b = new Uint8Array(input.buffer, input.byteOffset, input.length);
    if (s.held) {
      b = new Uint8Array(s.held.length + input.length);
      b.set(s.held);
      b.set(input, s.held.length);
      s.held = null;
    }
    const n = b.length;
    let line = s.line;
    let lineStart = -s.carried;
    /** UTF-16 units fewer than bytes in [lineStart, lessAt), counted when a column is asked. */
    let less = s.carriedLess;
    let lessAt = 0;
    let depth = s.depth;
    let inString = s.inString;
    let escaped = s.escaped;
    let from = depth > 0 && !s.skipping ? 0 : -1;
    const column = (i: number) => {
      less += unitsLess(b, lessAt, i);
      lessAt = i;
      return i - lineStart + 1 - less;
    };
    const problemAtStart = (reason: StreamProblem['reason'], message: string) =>
      problems.push({ line: s.start.line, column: s.start.column, reason, message });
    const begin = (i: number) => {
      depth = 1;
      inString = false;
      escaped = false;
      s.skipping = false;
      from = i;
      s.pending = [];
      s.pendingChars = 0;
      s.start = { line, column: column(i) };
    };
    const skip = (reason: StreamProblem['reason'], message: string) => {
      problemAtStart(reason, message);
      s.skipping = true;
      s.pending = [];
      from = -1;
    };

    let end = n;
    for (let i = 0; i < n; i++) {
      let c = b[i] as number;
      if (inString && !escaped) {
        // the body of a string: nothing but its end, an escape or a line end matters
        while (c !== QUOTE && c !== BACKSLASH && c !== NL) {
          if (++i >= n) break;
          c = b[i] as number;
        }
        if (i >= n) break;
      }
      if (c === NL) {
        if (s.garbage) {
          problems.push(garbageProblem());
          s.garbage = false;
        }
        line++;
        lineStart = i + 1;
        less = 0;
        lessAt = i + 1;
        inString = false;
        escaped = false;
        continue;
      }
      if (s.garbage) {
        if (s.garbageBytes.length < GARBAGE_BYTES) s.garbageBytes.push(c);
        continue;
      }
      if (depth === 0) {
        if (c === OPEN_BRACE && tryValue) {
          const fast = tryValue(b, i, n);
          if (fast) {
            if (fast.newlines > 0) {
              line += fast.newlines;
              lineStart = lessAt = fast.lastNewline + 1;
              less = 0;
            }
            i = fast.end - 1;
            continue;
          }
        }
        if (c === OPEN_BRACE || c === OPEN_BRACKET) begin(i);
        else if (c === 0xef && isBomAt(b, i)) {
          if (i + 2 >= n) {
            // the mark may go on in the next chunk: look again with it
            s.held = copyOf(b, i, n);
            end = i;
            break;
          }
          i += 2;
        } else if (c !== 32 && c !== 9 && c !== 13 && c !== 44) {
          s.garbage = true;
          s.garbageBytes = [c];
          s.garbageAt = { line, column: column(i) };
        }
        continue;
      }
      if (i === lineStart && !inString && (c === OPEN_BRACE || c === OPEN_BRACKET)) {
        // a value starting a line while another is open: the open one was cut
        problemAtStart('truncated', 'unterminated JSON value');
        begin(i);
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (c === QUOTE) inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        depth++;
        if (depth > maxDepth && !s.skipping)
          skip('too-deep', `JSON value nested deeper than ${maxDepth} levels: skipped`);
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) {
          if (!s.skipping) emit(b, from, i + 1, sink);
          s.skipping = false;
          s.pending = [];
          s.pendingChars = 0;
          from = -1;
        }
      }
    }
    if (depth > 0 && !s.skipping && from >= 0) {
      s.pendingChars += end - from - unitsLess(b, from, end);
      if (s.pendingChars > maxValue)
        skip('too-large', `JSON value longer than ${maxValue} characters: skipped`);
      else s.pending.push(copyOf(b, from, end));
    }
    s.line = line;
    s.carried = end - lineStart;
    s.carriedLess = less + unitsLess(b, lessAt, end);
    s.depth = depth;
    s.inString = inString;
    s.escaped = escaped;
  }

  function emit(b: Uint8Array, from: number, to: number, sink: ByteValueSink): void {
    const { pending, start } = s;
    if (pending.length === 0) return sink(b, from, to, start.line, start.column);
    const parts = [...pending, b.subarray(from, to)];
    const whole = new Uint8Array(parts.reduce((k, p) => k + p.length, 0));
    let at = 0;
    for (const p of parts) {
      whole.set(p, at);
      at += p.length;
    }
    sink(whole, 0, whole.length, start.line, start.column);
  }

  function end(problems: StreamProblem[]): void {
    if (s.held) {
      // an incomplete mark at the very end: garbage, as its characters are
      s.garbage = true;
      s.garbageBytes = [...s.held];
      s.garbageAt = { line: s.line, column: s.carried + 1 - s.carriedLess };
      s.held = null;
    }
    if (s.garbage) problems.push(garbageProblem());
    if (s.depth > 0 && !s.skipping)
      problems.push({ ...s.start, reason: 'truncated', message: 'unterminated JSON value' });
    s.depth = 0;
    s.pending = [];
    s.garbage = false;
  }

  return { push, end };
}

/**
 * How many fewer UTF-16 units than bytes b[from, to) makes: a continuation byte adds no unit,
 * a lead byte of four adds two (a surrogate pair), every other byte one.
 */
function unitsLess(b: Uint8Array, from: number, to: number): number {
  let less = 0;
  for (let i = Math.max(0, from); i < to; i++) {
    const c = b[i] as number;
    if (c < 0x80) continue;
    if (c < 0xc0) less++;
    else if (c >= 0xf0) less--;
  }
  return less;
}

function isBomAt(b: Uint8Array, i: number): boolean {
  return (i + 1 >= b.length || b[i + 1] === 0xbb) && (i + 2 >= b.length || b[i + 2] === 0xbf);
}

/** A copy of b[from, to) (Buffer's slice would be a view of a buffer the caller reuses). */
function copyOf(b: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array(to - from);
  out.set(b.subarray(from, to));
  return out;
}
