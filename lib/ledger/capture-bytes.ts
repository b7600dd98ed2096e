import { RecentAsciiTexts } from '../ascii-text';
import { fractionMs, utcFieldsInRange, utcMs } from '../utc-time';

/**
 * Reading JSON straight from UTF-8 bytes, for the few fields of a pod that IP history needs
 * (see capture-event.ts). Every function takes the bytes, a position and the end of the value
 * and returns the position after what it read, or FAIL. FAIL means "not certain": the JSON is
 * invalid, or valid in a way these functions do not read (a key written with escapes, a key
 * given twice). The caller then reads the value with JSON.parse, so FAIL never changes a
 * result, it only costs time; what these functions accept, JSON.parse reads the same way.
 *
 * The functions that keep what they saw (the last string's kind, the key matched, line ends and
 * nesting) are made together by jsonBytes, one set per reader: nothing is kept in the module.
 */
export const FAIL = -1;

const QUOTE = 34;
const BACKSLASH = 92;
/** 1 for the bytes a string holds as they are: printable ASCII but the quote and backslash. */
const STRING_BYTE = Uint8Array.from({ length: 256 }, (_, c) =>
  c >= 0x20 && c < 0x80 && c !== QUOTE && c !== BACKSLASH ? 1 : 0,
);

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 48 && c <= 57) || ((c | 32) >= 97 && (c | 32) <= 102));
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

const digit = (b: Uint8Array, i: number): number => {
  const c = (b[i] as number) - 48;
  return c >= 0 && c <= 9 ? c : -1000;
};
const two = (b: Uint8Array, i: number) => digit(b, i) * 10 + digit(b, i + 1);

/** A number at p: the position after it, or FAIL (JSON's grammar, nothing more). */
export function readNumber(b: Uint8Array, p: number, e: number): number {
  if (b[p] === 45) p++;
  if (b[p] === 48) p++;
  else {
    const from = p;
    while (p < e && digit(b, p) >= 0) p++;
    if (p === from) return FAIL;
  }
  if (b[p] === 46) {
    const from = ++p;
    while (p < e && digit(b, p) >= 0) p++;
    if (p === from) return FAIL;
  }
  if (b[p] === 101 || b[p] === 69) {
    p++;
    if (b[p] === 43 || b[p] === 45) p++;
    const from = p;
    while (p < e && digit(b, p) >= 0) p++;
    if (p === from) return FAIL;
  }
  return p > e ? FAIL : p;
}

const TRUE = [116, 114, 117, 101];
const FALSE = [102, 97, 108, 115, 101];
const NULL = [110, 117, 108, 108];

function readWord(b: Uint8Array, p: number, e: number, word: number[]): number {
  if (p + word.length > e) return FAIL;
  for (let k = 0; k < word.length; k++) if (b[p + k] !== word[k]) return FAIL;
  return p + word.length;
}

/** Whether the value at p is the literal `true`. */
export function isTrue(b: Uint8Array, p: number): boolean {
  return b[p] === 116 && b[p + 1] === 114 && b[p + 2] === 117 && b[p + 3] === 101;
}

/**
 * Keys an object reader knows, each by its index in the list it was made from, listed by
 * their first byte: a key as it is written (`"name"`) is matched where it starts, without
 * reading it as a string first.
 */
export interface KeyTable {
  byFirst: (readonly [Uint8Array, number])[][];
  size: number;
}

export function keyTable(keys: readonly string[]): KeyTable {
  const byFirst: (readonly [Uint8Array, number])[][] = [];
  keys.forEach((k, id) => {
    const list = (byFirst[k.charCodeAt(0)] ??= []);
    // with its closing quote: a match is the whole key, not a prefix of a longer one
    list.push([Uint8Array.from(`${k}"`, (ch) => ch.charCodeAt(0)), id] as const);
  });
  return { byFirst, size: keys.length };
}

const NO_KEYS = keyTable([]);

/** Reads the value of a known key (at p, after white space) into `into`; returns the position after it. */
export type FieldReader<T> = (into: T, key: number, b: Uint8Array, p: number, e: number) => number;
export type ItemReader<T> = (into: T, b: Uint8Array, p: number, e: number) => number;

/** What a read of one value saw: its line ends, nesting, and the nesting allowed. */
export interface Seen {
  newlines: number;
  lastNewline: number;
  depth: number;
  maxDepth: number;
}

/**
 * One reader's JSON byte functions and what they saw. A reader makes one set and uses it for
 * every value it reads (the set is not for two reads at once).
 */
export function jsonBytes() {
  const texts = new RecentAsciiTexts();
  /** What the last readString saw: whether its text needs decoding, and whether it had escapes. */
  let plainText = true;
  let hadEscape = false;

  /** What a read of one value saw: its line ends, nesting, and the nesting allowed. */
  const seen: Seen = { newlines: 0, lastNewline: -1, depth: 0, maxDepth: 512 };

  /**
   * White space from p: the position after it. FAIL where a line inside the value starts with
   * `{` or `[`: the splitter takes that for a new value (the one open was cut).
   */
  function skipWs(b: Uint8Array, p: number, e: number): number {
    while (p < e) {
      const c = b[p] as number;
      if (c === 32 || c === 13 || c === 9) p++;
      else if (c === 10) {
        seen.newlines++;
        seen.lastNewline = p++;
        if (b[p] === 123 || b[p] === 91) return FAIL;
      } else break;
    }
    return p;
  }

  /** A string at p (its opening quote): the position after its closing quote, or FAIL. */
  function readString(b: Uint8Array, p: number, e: number): number {
    plainText = true;
    hadEscape = false;
    p++;
    while (p < e) {
      const c = b[p] as number;
      if (STRING_BYTE[c] === 1) {
        p++;
        continue;
      }
      if (c === QUOTE) return p + 1;
      if (c === BACKSLASH) {
        plainText = false;
        hadEscape = true;
        const d = b[p + 1];
        if (d === 117 /* u */) {
          if (!(isHex(b[p + 2]) && isHex(b[p + 3]) && isHex(b[p + 4]) && isHex(b[p + 5])))
            return FAIL;
          p += 6;
        } else if (
          d === QUOTE ||
          d === BACKSLASH ||
          d === 47 ||
          d === 98 ||
          d === 102 ||
          d === 110 ||
          d === 114 ||
          d === 116
        )
          p += 2;
        else return FAIL;
        continue;
      }
      if (c < 0x20) return FAIL;
      if (c >= 0x80) plainText = false;
      p++;
    }
    return FAIL;
  }

  /** Whether the string readString read last is ASCII without escapes (its bytes are its text). */
  function lastStringPlain(): boolean {
    return plainText && !hadEscape;
  }

  /** The text of the string read last, b[s, end) with its quotes, as JSON.parse gives it. */
  function stringText(b: Uint8Array, s: number, end: number): string {
    if (!plainText) return JSON.parse(decoder.decode(b.subarray(s, end))) as string;
    return texts.text(b, s + 1, end - 1);
  }

  /**
   * Date.parse of the string read last, b[s, end) with its quotes, or null when it is no date.
   * RFC 3339 UTC times as Kubernetes writes them (`2024-06-01T10:00:00Z`, with or without a
   * fraction) are read from the digits; anything else goes to Date.parse.
   */
  function timeOf(b: Uint8Array, s: number, end: number): number | null {
    const n = end - s - 2;
    if (plainText && n >= 20 && n <= 40) {
      const p = s + 1;
      const y = two(b, p) * 100 + two(b, p + 2);
      const mo = two(b, p + 5);
      const d = two(b, p + 8);
      const h = two(b, p + 11);
      const mi = two(b, p + 14);
      const sec = two(b, p + 17);
      const shape =
        b[p + 4] === 45 &&
        b[p + 7] === 45 &&
        b[p + 10] === 84 &&
        b[p + 13] === 58 &&
        b[p + 16] === 58 &&
        b[end - 2] === 90;
      if (shape && utcFieldsInRange(y, mo, d, h, mi, sec)) {
        let ms = 0;
        let ok = n === 20;
        if (!ok && b[p + 19] === 46 && n >= 22) {
          ok = true;
          for (let i = p + 20, k = 0; i < end - 2; i++, k++) {
            const c = digit(b, i);
            if (c < 0) {
              ok = false;
              break;
            }
            if (k < 3) ms = ms * 10 + c;
          }
          ms = fractionMs(ms, n - 21);
        }
        if (ok) return utcMs(y, mo, d, h, mi, sec, ms);
      }
    }
    const t = Date.parse(stringText(b, s, end));
    return Number.isNaN(t) ? null : t;
  }

  /** The number b[s, end) (read by readNumber), as JSON.parse gives it. */
  function numberOf(b: Uint8Array, s: number, end: number): number {
    return Number(texts.text(b, s, end));
  }

  /** Any value at p (after white space): the position after it, or FAIL. */
  function skipValue(b: Uint8Array, p: number, e: number): number {
    const c = b[p];
    if (c === QUOTE) return readString(b, p, e);
    if (c === 123) return eachField(b, p, e, NO_KEYS, null, ignore);
    if (c === 91) return eachItem(b, p, e, null, ignoreItem);
    if (c === 116) return readWord(b, p, e, TRUE);
    if (c === 102) return readWord(b, p, e, FALSE);
    if (c === 110) return readWord(b, p, e, NULL);
    if (c === 45 || (c !== undefined && c >= 48 && c <= 57)) return readNumber(b, p, e);
    return FAIL;
  }

  /** The index of the key keyEnd matched last. */
  let keyMatched = -1;

  /**
   * Where the known key written at b[s] (after its opening quote) as it is ends (after its
   * closing quote), its index in keyMatched; -1 when none is (another key, or a known one
   * written with escapes).
   */
  function keyEnd(table: KeyTable, b: Uint8Array, s: number, e: number): number {
    const list = table.byFirst[b[s] as number];
    if (list === undefined) return -1;
    for (let j = 0; j < list.length; j++) {
      const entry = list[j] as readonly [Uint8Array, number];
      const bytes = entry[0];
      const n = bytes.length;
      if (s + n > e) continue;
      let k = 1;
      while (k < n && b[s + k] === bytes[k]) k++;
      if (k === n) {
        keyMatched = entry[1];
        return s + n;
      }
    }
    return -1;
  }

  const ignore: FieldReader<null> = () => FAIL;
  const ignoreItem: ItemReader<null> = (_, b, p, e) => skipValue(b, p, e);

  /**
   * An object at p: the values of the keys in `keys` go to `read`, the others are skipped. A
   * known key given twice (JSON.parse keeps the last) or written with escapes is FAIL.
   */
  function eachField<T>(
    b: Uint8Array,
    p: number,
    e: number,
    keys: KeyTable,
    into: T,
    read: FieldReader<T>,
  ): number {
    let known = 0;
    if (++seen.depth > seen.maxDepth) return FAIL;
    p = skipWs(b, p + 1, e);
    if (b[p] === 125) {
      seen.depth--;
      return p + 1;
    }
    for (;;) {
      if (b[p] !== QUOTE) return FAIL;
      const after = keys.size === 0 ? -1 : keyEnd(keys, b, p + 1, e);
      const id = after < 0 ? -1 : keyMatched;
      if (after >= 0) p = after;
      else {
        p = readString(b, p, e);
        if (p === FAIL) return FAIL;
        // a key written with escapes may be a known one: JSON.parse decides
        if (hadEscape && keys.size > 0) return FAIL;
      }
      p = skipWs(b, p, e);
      if (b[p] !== 58) return FAIL;
      p = skipWs(b, p + 1, e);
      if (p === FAIL) return FAIL;
      if (id >= 0) {
        if (known & (1 << id)) return FAIL;
        known |= 1 << id;
        p = read(into, id, b, p, e);
      } else p = skipValue(b, p, e);
      if (p === FAIL) return FAIL;
      p = skipWs(b, p, e);
      const c = b[p];
      if (c === 125) {
        seen.depth--;
        return p + 1;
      }
      if (c !== 44) return FAIL;
      p = skipWs(b, p + 1, e);
    }
  }

  /** An array at p: each item (at its start, after white space) goes to `read`. */
  function eachItem<T>(b: Uint8Array, p: number, e: number, into: T, read: ItemReader<T>): number {
    if (++seen.depth > seen.maxDepth) return FAIL;
    p = skipWs(b, p + 1, e);
    if (b[p] === 93) {
      seen.depth--;
      return p + 1;
    }
    for (;;) {
      if (p === FAIL) return FAIL;
      p = read(into, b, p, e);
      if (p === FAIL) return FAIL;
      p = skipWs(b, p, e);
      const c = b[p];
      if (c === 93) {
        seen.depth--;
        return p + 1;
      }
      if (c !== 44) return FAIL;
      p = skipWs(b, p + 1, e);
    }
  }

  return {
    seen,
    skipWs,
    readString,
    lastStringPlain,
    stringText,
    timeOf,
    numberOf,
    skipValue,
    eachField,
    eachItem,
  };
}

/** The functions of one reader (see jsonBytes). */
export type JsonBytes = ReturnType<typeof jsonBytes>;
