import { splitKubectlTimestamp } from './classify';
import { PREFIX_FORMAT } from './formats';

/**
 * A byte-level look at the start of one access-log line, made before any string is created.
 *
 * PASS means: this line is certainly an access-log record whose response code is below 500
 * (or "-") and whose flags are "-": the full parser would read it as such a record whatever
 * format it then picks, because every format it can pick starts with Istio's head
 * `[%START_TIME%] "%REQ(:METHOD)% %PATH% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% `
 * and reads those fields the same way. Such a line needs no attribution by default.
 * PARSE means anything else: a failure (5xx or flagged), another shape (JSON, a custom format,
 * a proxy log line), or something odd. Those lines go to the full parser, which reads or
 * reports them. The verdict errs only towards PARSE.
 */
export const PASS = 0;
export const PARSE = 1;
export type PrescanVerdict = typeof PASS | typeof PARSE;

const CR = 13;
const SPACE = 32;
const TAB = 9;
const QUOTE = 34;
const OPEN = 91; // [
const CLOSE = 93; // ]
const DASH = 45;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Bytes of a START_TIME the pre-scan accepts: ASCII letters, digits and `:.+-`. */
const TIME_BYTE = (() => {
  const t = new Uint8Array(256);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/[0-9A-Za-z:.+-]/.test(ch)) t[c] = 1;
  }
  return t;
})();

/**
 * Where the access-log part of a `kubectl logs --timestamps` line starts (after the RFC 3339
 * time and one space), or -1 when the line has no such prefix the pre-scan can vouch for.
 */
function afterKubectlTimestamp(b: Uint8Array, s: number, e: number): number {
  const n = Math.min(e - s, 42);
  let head = '';
  for (let i = 0; i < n; i++) {
    const c = b[s + i] as number;
    if (c >= 128) return -1;
    head += String.fromCharCode(c);
  }
  const split = splitKubectlTimestamp(head);
  return split ? s + split.timestamp.length + 1 : -1;
}

const POD_PREFIX = [OPEN, 112, 111, 100, 47]; // "[pod/"

/**
 * Where the line starts after a `kubectl logs --prefix` prefix `[pod/NAME/CONTAINER] ` (the
 * shape splitKubectlPrefix accepts: two slashes, no space inside), or -1.
 */
function afterKubectlPrefix(b: Uint8Array, s: number, e: number): number {
  for (let k = 0; k < POD_PREFIX.length; k++) if (b[s + k] !== POD_PREFIX[k]) return -1;
  let slashes = 1;
  const n = Math.min(e, s + 600);
  for (let p = s + POD_PREFIX.length; p < n; p++) {
    const c = b[p] as number;
    if (c === CLOSE) {
      const nameOk = slashes === 2 && b[p - 1] !== 47 && b[s + POD_PREFIX.length] !== 47;
      return nameOk && b[p + 1] === SPACE ? p + 2 : -1;
    }
    if (c === SPACE || c === TAB || c === OPEN) return -1;
    if (c === 47) {
      if (++slashes > 2 || b[p - 1] === 47) return -1;
    }
  }
  return -1;
}

export interface Prescan {
  /** Classifies one line b[s, e) (without its '\n'; a trailing '\r' is allowed). */
  line(b: Uint8Array, s: number, e: number): PrescanVerdict;
  /** The buffer lines were in may hold other bytes now (a reused read buffer): forget it. */
  forget(): void;
}

/**
 * A pre-scan for the lines of a scan, in order. It looks at the head of a line only (its cost
 * does not grow with the line's length) and at no byte twice: the request path, the longest
 * part of the head, is skipped by a native search for the space after it, which is sound
 * because the pre-scan knows where the tabs are (a line with a tab anywhere goes to the parser;
 * the tabs of a buffer are found once, in one native pass, as lines are asked about in order).
 */
export function createPrescan(): Prescan {
  let tabsOf: Uint8Array | null = null;
  /** The first tab at or after the last line asked about in tabsOf (Infinity: none). */
  let nextTab = Infinity;
  let tabsFrom = 0;

  function hasTab(b: Uint8Array, s: number, e: number): boolean {
    if (b !== tabsOf || s < tabsFrom) {
      // another buffer, or lines asked about out of order: nothing known
      tabsOf = b;
      tabsFrom = s;
      nextTab = -1;
    }
    if (nextTab < s) {
      const t = b.indexOf(TAB, s);
      nextTab = t < 0 ? Infinity : t;
      tabsFrom = s;
    }
    return nextTab < e;
  }

  function line(b: Uint8Array, s: number, e: number): PrescanVerdict {
    if (e > s && b[e - 1] === CR) e--;
    let p = s;
    if (p >= e || hasTab(b, s, e)) return PARSE;
    // `kubectl logs --prefix`: `[pod/NAME/CONTAINER] ` before the line (the parser strips it
    // first too, and reads the rest as it reads an unprefixed line)
    if (b[p] === OPEN && b[p + 1] === 112 /* p */) {
      p = afterKubectlPrefix(b, p, e);
      if (p < 0 || p >= e) return PARSE;
    }
    if (isDigit(b[p] as number)) {
      p = afterKubectlTimestamp(b, p, e);
      if (p < 0 || p >= e) return PARSE;
    }
    // [START_TIME] with a digit first, 8..40 characters, no ']' inside (so no proxy log line)
    if (b[p] !== OPEN) return PARSE;
    p++;
    const t0 = p;
    if (p >= e || !isDigit(b[p] as number)) return PARSE;
    for (;;) {
      if (p >= e) return PARSE;
      const c = b[p] as number;
      if (c === CLOSE) break;
      if (TIME_BYTE[c] === 0) return PARSE;
      p++;
    }
    const timeLen = p - t0;
    if (timeLen < 8 || timeLen > 40 || p + 2 >= e) return PARSE;
    if (b[p + 1] !== SPACE || b[p + 2] !== QUOTE) return PARSE;
    p += 3;
    // "METHOD PATH PROTOCOL": tokens without spaces (and, from hasTab, without tabs)
    const method = p;
    while (p < e && b[p] !== SPACE) p++;
    if (p === method || p >= e) return PARSE;
    const afterPath = b.indexOf(SPACE, p + 1);
    if (afterPath <= p + 1 || afterPath >= e) return PARSE;
    p = afterPath + 1;
    const proto = p;
    while (p < e) {
      const c = b[p] as number;
      if (c === QUOTE && p + 1 < e && b[p + 1] === SPACE) break;
      if (c === SPACE) return PARSE;
      p++;
    }
    if (p === proto || p >= e) return PARSE;
    p += 2;
    // RESPONSE_CODE: '-' or 1..15 digits
    let code = 0;
    const c0 = p;
    if (b[p] === DASH) p++;
    else {
      while (p < e && isDigit(b[p] as number)) code = code * 10 + ((b[p++] as number) - 48);
      if (p === c0 || p - c0 > 15) return PARSE;
    }
    if (p >= e || b[p] !== SPACE) return PARSE;
    p++;
    // RESPONSE_FLAGS: PASS only for "-" or an empty value, each followed by a space
    if (p < e && b[p] === SPACE) return code >= 500 ? PARSE : PASS;
    if (p + 1 < e && b[p] === DASH && b[p + 1] === SPACE) return code >= 500 ? PARSE : PASS;
    return PARSE;
  }

  return { line, forget: () => void (tabsOf = null) };
}

/** The verdict on one line alone (tests; a scan makes one createPrescan for its lines). */
export function prescanLine(b: Uint8Array, s: number, e: number): PrescanVerdict {
  return createPrescan().line(b, s, e);
}

/**
 * Whether the pre-scan's PASS verdict holds for a parser built with these options: every
 * format the parser may pick must start with Istio's head (so the code and flags it reads
 * are the ones the pre-scan read), and the prefix fallback must be on.
 */
export function prescanAppliesTo(options: { format?: string; onlyCustom?: boolean }): boolean {
  if (options.onlyCustom) return false;
  if (!options.format) return true;
  const custom = options.format.replace(/\r?\n$/, '');
  return custom.startsWith(PREFIX_FORMAT.source);
}
