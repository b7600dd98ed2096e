import {
  FAIL,
  jsonBytes,
  keyTable,
  type FieldReader,
  type ItemReader,
} from '../ledger/capture-bytes';
import { RecentAsciiTexts } from '../ascii-text';
import { XDS_FIELDS, xdsStateCode } from './xds-state';

/**
 * istiod's /debug/syncz answer read from its bytes: per row, the proxy id and, per xDS type, a
 * states code (two bits per type, as parseSyncz codes them), without the answer's text or an
 * object per row. At 20,000 proxies the answer is ~13 MB of indented JSON; its text and parsed
 * rows were ~35 MB of heap at the peak of every fleet view. Only the plain case is read: an
 * array of objects whose proxy and versions are ASCII strings without escapes. Anything else
 * (a row that is no object, a version that is no string, a key given twice, escapes, invalid
 * JSON) is null, and the caller reads the answer with JSON.parse, which names each bad row.
 */
export interface SynczBytesRows {
  proxies: string[];
  codes: number[];
}

/** The fields read: the proxy id, then each xDS type's sent and acked, in XDS_TYPES order. */
const FIELDS = ['proxy', ...XDS_FIELDS.flat()];
const KEYS = keyTable(FIELDS);

/** Where each field's string starts and ends (after its closing quote), -1 when absent. */
class Row {
  readonly starts = new Int32Array(FIELDS.length);
  readonly ends = new Int32Array(FIELDS.length);
  reset(): this {
    this.starts.fill(-1);
    return this;
  }
}

/** xdsStateCode for the strings b[sent) and b[acked) of a row (absent reads as empty). */
function stateCode(b: Uint8Array, row: Row, sentKey: number): number {
  const s = row.starts[sentKey] as number;
  const sLen = s < 0 ? 0 : (row.ends[sentKey] as number) - s;
  const a = row.starts[sentKey + 1] as number;
  const aLen = a < 0 ? 0 : (row.ends[sentKey + 1] as number) - a;
  let same = aLen === sLen;
  for (let k = 0; same && k < sLen; k++) same = b[s + k] === b[a + k];
  return xdsStateCode(sLen === 0, aLen === 0, same);
}

class Rows {
  readonly row = new Row();
  proxies: string[] = [];
  codes: number[] = [];
}

/** The rows of a syncz answer's bytes, or null where JSON.parse must read it (see above). */
export function synczRowsFromBytes(b: Uint8Array): SynczBytesRows | null {
  const { eachField, eachItem, lastStringPlain, readString, seen, skipWs } = jsonBytes();
  const texts = new RecentAsciiTexts();
  const readRowField: FieldReader<Row> = (row, key, b, p, e) => {
    // a version or id that is no string (null, a number...): JSON.parse's path names it
    if (b[p] !== 34) return FAIL;
    const end = readString(b, p, e);
    if (end === FAIL || !lastStringPlain()) return FAIL;
    row.starts[key] = p + 1;
    row.ends[key] = end - 1;
    return end;
  };
  const readItem: ItemReader<Rows> = (rows, b, p, e) => {
    if (b[p] !== 123) return FAIL;
    const row = rows.row.reset();
    const end = eachField(b, p, e, KEYS, row, readRowField);
    if (end === FAIL) return FAIL;
    const ps = row.starts[0] as number;
    if (ps < 0) return FAIL; // no proxy id: JSON.parse's path names the row
    let code = 0;
    for (let k = 0; k < XDS_FIELDS.length; k++) code |= stateCode(b, row, 1 + 2 * k) << (2 * k);
    rows.proxies.push(texts.text(b, ps, row.ends[0] as number));
    rows.codes.push(code);
    return end;
  };
  seen.depth = 0;
  seen.maxDepth = 64;
  let p = skipWs(b, 0, b.length);
  if (p === FAIL || b[p] !== 91) return null;
  const rows = new Rows();
  p = eachItem(b, p, b.length, rows, readItem);
  if (p === FAIL) return null;
  p = skipWs(b, p, b.length);
  return p === b.length ? { proxies: rows.proxies, codes: rows.codes } : null;
}
