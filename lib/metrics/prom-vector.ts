import { asciiText, AsciiTexts } from '../ascii-text';
import { parseFloatStrict } from './value';

/**
 * Prometheus's instant-vector answer (GET /api/v1/query) read from its bytes, for the labels the
 * caller names: no text of the whole answer, no object per series, no value array or timestamp
 * string. A fleet's answer has one series per proxy (20,000 at 20,000 proxies, four such answers
 * per view); read as text, each answer was a 2 MB string and an object per series. The scan takes
 * exactly the shape Prometheus writes:
 *
 *   {"status":"success","data":{"resultType":"vector","result":[
 *     {"metric":{"namespace":"shop","pod":"cart-7d4"},"value":[1764590400.123,"112"]}, ...]}}
 *
 * Anything else (a string with an escape, spaces, warnings or infos after the data, another
 * result type, an error, a cut answer, a label named twice) is null: the caller then reads it
 * with JSON.parse, which names what is wrong. So the scan is never the reason an answer is
 * misread.
 */
export interface ScannedVector {
  /** Series in the answer. */
  count: number;
  /**
   * One column per label asked for, in the order asked: each series' value of that label, or
   * undefined where the series has no such label.
   */
  columns: (string | undefined)[][];
  /** Each sample's time, epoch ms (rounded as the JSON reader rounds it). */
  atMs: Float64Array;
  /** Each sample's value (NaN, +Inf and -Inf as Prometheus writes them). */
  values: Float64Array;
}

const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const HEAD = bytesOf('{"status":"success","data":{"resultType":"vector","result":[');
const ITEM_OPEN = bytesOf('{"metric":{');
const VALUE_OPEN = bytesOf('},"value":[');
const QUOTE = 34;
const COMMA = 44;
const COLON = 58;
const BACKSLASH = 92;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;
/** Past this many digits a number is read by Number (the exact cases below stay exact). */
const EXACT_DIGITS = 15;

function startsWith(b: Uint8Array, p: number, word: Uint8Array): boolean {
  if (p + word.length > b.length) return false;
  for (let k = 0; k < word.length; k++) if (b[p + k] !== word[k]) return false;
  return true;
}

const isDigit = (c: number | undefined) => c !== undefined && c >= 48 && c <= 57;

/** One answer's scan: its bytes, what the string read last held, the time read last. */
class Scan {
  /** Where the string stringEnd read last ends, and whether it holds a byte above 0x7f. */
  private lastEnd = -1;
  private lastHigh = false;
  /** The sample time readTime read last, epoch ms. */
  timeMs = NaN;

  constructor(
    readonly b: Uint8Array,
    private readonly texts: AsciiTexts,
  ) {}

  /**
   * A JSON string's content from p (after its opening quote): the position of its closing
   * quote, or -1 where the scan does not read it (a control character, which JSON does not
   * allow in a string, or no end; the answer holds no backslash, so no escape). Only strings
   * are looked at byte by byte: everywhere else the scan matches the exact bytes it expects.
   */
  stringEnd(p: number): number {
    const b = this.b;
    const n = b.length;
    let high = false;
    for (let q = p; q < n; q++) {
      const c = b[q] as number;
      if (c === QUOTE) {
        this.lastEnd = q;
        this.lastHigh = high;
        return q;
      }
      if (c < 0x20) return -1;
      if (c >= 0x80) high = true;
    }
    return -1;
  }

  /**
   * b[s, e), a string's content, as JSON.parse of the decoded answer gives it: decoded as UTF-8
   * (ill-formed bytes replaced; a quote ends any sequence, so a string decodes alone as it does
   * within the answer) where it holds a byte above 0x7f, else ASCII.
   */
  text(s: number, e: number): string {
    const high = e === this.lastEnd ? this.lastHigh : this.b.subarray(s, e).some((c) => c >= 0x80);
    return high ? utf8.decode(this.b.subarray(s, e)) : this.texts.text(this.b, s, e);
  }

  /**
   * A sample time at p (JSON's number grammar) read into timeMs as Math.round(t * 1000), exact
   * from the digits in Prometheus's own form (at most three decimals); the position after it,
   * or -1.
   */
  readTime(p: number): number {
    const b = this.b;
    const s = p;
    if (b[p] === 45) p++;
    if (b[p] === 48) p++;
    else if (isDigit(b[p])) while (isDigit(b[p])) p++;
    else return -1;
    const intEnd = p;
    let fracDigits = 0;
    if (b[p] === 46) {
      p++;
      while (isDigit(b[p])) p++;
      fracDigits = p - intEnd - 1;
      if (fracDigits === 0) return -1;
    }
    let exponent = false;
    if (b[p] === 101 || b[p] === 69) {
      exponent = true;
      p++;
      if (b[p] === 43 || b[p] === 45) p++;
      if (!isDigit(b[p])) return -1;
      while (isDigit(b[p])) p++;
    }
    if (b[s] !== 45 && !exponent && fracDigits <= 3 && intEnd - s <= 12) {
      let ms = 0;
      for (let k = s; k < intEnd; k++) ms = ms * 10 + ((b[k] as number) - 48);
      let frac = 0;
      for (let k = 0; k < 3; k++)
        frac = frac * 10 + (k < fracDigits ? (b[intEnd + 1 + k] as number) - 48 : 0);
      this.timeMs = ms * 1000 + frac;
    } else this.timeMs = Math.round(Number(asciiText(b, s, p)) * 1000);
    return p;
  }

  /** The sample value b[s, e) (the text inside its quotes), or null when it is no Go float. */
  value(s: number, e: number): number | null {
    const b = this.b;
    if (e > s && e - s <= EXACT_DIGITS) {
      let n = 0;
      let p = s;
      for (; p < e; p++) {
        const c = b[p] as number;
        if (c < 48 || c > 57) break;
        n = n * 10 + (c - 48);
      }
      if (p === e) return n;
    }
    return parseFloatStrict(this.text(s, e));
  }
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Scans an answer's bytes for the labels `names`; null where JSON.parse must read it. `texts`
 * keeps the label values made, for the next answers of the same read.
 */
export function scanVector(
  b: Uint8Array,
  names: readonly string[],
  texts: AsciiTexts = new AsciiTexts(),
): ScannedVector | null {
  if (!startsWith(b, 0, HEAD) || b.indexOf(BACKSLASH) >= 0) return null;
  if (names.some((n) => /[^\x20-\x7e]|["\\]/.test(n))) return null;
  const scan = new Scan(b, texts);
  const keys = names.map((n) => bytesOf(`${n}"`));
  const columns: (string | undefined)[][] = names.map(() => []);
  const at: number[] = [];
  const values: number[] = [];
  const row: (string | undefined)[] = names.map(() => undefined);
  let p = HEAD.length;
  if (b[p] === CLOSE_ARRAY)
    p++; // an empty result
  else
    for (;;) {
      if (!startsWith(b, p, ITEM_OPEN)) return null;
      p += ITEM_OPEN.length;
      // a loop: Array.prototype.fill on three items cost ~0.6 µs a series (90 ms a fleet view)
      for (let k = 0; k < row.length; k++) row[k] = undefined;
      while (b[p] === QUOTE) {
        const keyStart = p + 1;
        const keyEnd = scan.stringEnd(keyStart);
        if (keyEnd < 0 || b[keyEnd + 1] !== COLON || b[keyEnd + 2] !== QUOTE) return null;
        let which = -1;
        for (let k = 0; k < keys.length; k++) {
          const key = keys[k] as Uint8Array;
          if (key.length === keyEnd - keyStart + 1 && startsWith(b, keyStart, key)) {
            which = k;
            break;
          }
        }
        const valueStart = keyEnd + 3;
        const valueEnd = scan.stringEnd(valueStart);
        if (valueEnd < 0) return null;
        if (which >= 0) {
          // a label named twice: JSON.parse keeps the last, and says nothing; nor would this
          if (row[which] !== undefined) return null;
          row[which] = scan.text(valueStart, valueEnd);
        }
        p = valueEnd + 1;
        if (b[p] === COMMA && b[p + 1] === QUOTE) p++;
      }
      if (!startsWith(b, p, VALUE_OPEN)) return null;
      p = scan.readTime(p + VALUE_OPEN.length);
      if (p < 0 || b[p] !== COMMA || b[p + 1] !== QUOTE) return null;
      const valueEnd = scan.stringEnd(p + 2);
      if (valueEnd < 0 || b[valueEnd + 1] !== CLOSE_ARRAY || b[valueEnd + 2] !== CLOSE_OBJECT)
        return null;
      const value = scan.value(p + 2, valueEnd);
      if (value === null) return null;
      for (let k = 0; k < row.length; k++) (columns[k] as (string | undefined)[]).push(row[k]);
      at.push(scan.timeMs);
      values.push(value);
      p = valueEnd + 3;
      const next = b[p];
      if (next === COMMA) p++;
      else if (next === CLOSE_ARRAY) {
        p++;
        break;
      } else return null;
    }
  // the answer ends with the data (white space may follow): nothing left unread
  if (b[p] !== CLOSE_OBJECT || b[p + 1] !== CLOSE_OBJECT) return null;
  for (p += 2; p < b.length; p++) {
    const c = b[p];
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return null;
  }
  return {
    count: values.length,
    columns,
    atMs: Float64Array.from(at),
    values: Float64Array.from(values),
  };
}
