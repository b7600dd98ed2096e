import { parseFloatStrict } from './value';

/**
 * Prometheus's instant-vector answer (GET /api/v1/query) read by scanning its text, without
 * JSON.parse's object for every series, its value array and its timestamp: a fleet's answer has
 * one series per proxy (20,000 at 20,000 proxies, seven answers per view), and those objects
 * were most of what a fleet view allocated. The scan takes exactly the shape Prometheus writes:
 *
 *   {"status":"success","data":{"resultType":"vector","result":[
 *     {"metric":{"namespace":"shop","pod":"cart-7d4"},"value":[1764590400.123,"112"]}, ...]}}
 *
 * Anything else (a string with an escape, spaces, warnings or infos after the data, another
 * result type, an error, a cut answer) is null: the caller then reads it with JSON.parse, which
 * names what is wrong. So the scan is never the reason an answer is misread.
 */
export interface ScannedVector {
  /** Each series' labels, in the answer's order. */
  labels: Record<string, string>[];
  /** Each sample's time, epoch ms (rounded as the JSON reader rounds it). */
  atMs: Float64Array;
  /** Each sample's value (NaN, +Inf and -Inf as Prometheus writes them). */
  values: Float64Array;
}

const HEAD = '{"status":"success","data":{"resultType":"vector","result":[';
const ITEM_OPEN = '{"metric":{';
const VALUE_OPEN = '},"value":[';
const QUOTE = 34;
const COMMA = 44;

/** A JSON number as Prometheus writes a sample's time: digits, a point, an exponent. */
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

export function scanVector(text: string): ScannedVector | null {
  // an escape anywhere: the scan does not decode escapes (JSON.parse does)
  if (!text.startsWith(HEAD) || text.includes('\\')) return null;
  const labels: Record<string, string>[] = [];
  const at: number[] = [];
  const values: number[] = [];
  let p = HEAD.length;
  if (text.charCodeAt(p) === 93)
    p++; // ]: an empty result
  else
    for (;;) {
      if (!text.startsWith(ITEM_OPEN, p)) return null;
      p += ITEM_OPEN.length;
      const metric: Record<string, string> = {};
      while (text.charCodeAt(p) === QUOTE) {
        const keyEnd = text.indexOf('"', p + 1);
        if (
          keyEnd < 0 ||
          text.charCodeAt(keyEnd + 1) !== 58 ||
          text.charCodeAt(keyEnd + 2) !== QUOTE
        )
          return null;
        const valueEnd = text.indexOf('"', keyEnd + 3);
        if (valueEnd < 0) return null;
        metric[text.slice(p + 1, keyEnd)] = text.slice(keyEnd + 3, valueEnd);
        p = valueEnd + 1;
        if (text.charCodeAt(p) === COMMA && text.charCodeAt(p + 1) === QUOTE) p++;
      }
      if (!text.startsWith(VALUE_OPEN, p)) return null;
      p += VALUE_OPEN.length;
      const comma = text.indexOf(',', p);
      if (comma < 0 || text.charCodeAt(comma + 1) !== QUOTE) return null;
      const time = text.slice(p, comma);
      if (!NUMBER.test(time)) return null;
      const valueEnd = text.indexOf('"', comma + 2);
      if (
        valueEnd < 0 ||
        text.charCodeAt(valueEnd + 1) !== 93 ||
        text.charCodeAt(valueEnd + 2) !== 125
      )
        return null;
      const value = parseFloatStrict(text.slice(comma + 2, valueEnd));
      if (value === null) return null;
      labels.push(metric);
      at.push(Math.round(Number(time) * 1000));
      values.push(value);
      p = valueEnd + 3;
      const next = text.charCodeAt(p);
      if (next === COMMA) p++;
      else if (next === 93) {
        p++;
        break;
      } else return null;
    }
  // the answer ends with the data: nothing after it the scan would leave unread
  if (text.slice(p).trimEnd() !== '}}') return null;
  return { labels, atMs: Float64Array.from(at), values: Float64Array.from(values) };
}
