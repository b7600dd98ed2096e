import {
  readHolder,
  type Attribution,
  type AttributionInput,
  type HolderReader,
} from './attribution';
import type { IpHistory } from './ip-history';
import { jsonString, type IntervalTable, type KeyJson } from './interval-table';
import type { HolderState, IpLookup, PodInterval } from './types';

/** What `meshdx attribute --json` prints of one attribution. */
export function attributionView(a: Attribution) {
  return {
    line: a.line,
    time: a.time,
    code: a.code,
    flags: a.flags,
    upstream: a.upstream,
    pod: a.pod,
    state: a.state,
    afterTerminationMs: a.afterTerminationMs,
  };
}

/**
 * One attribution as it appears inside the report's "attributions" array (indented as
 * JSON.stringify(report, null, 2) indents it). Kept as text, a flat string, so that a long
 * run holds a few hundred bytes per failing request rather than its objects. Written field
 * by field (each value through JSON.stringify): the same bytes as stringifying
 * attributionView(a) with indent 2 and indenting it by 4, at a fraction of the cost.
 */
export function attributionJsonItem(a: Attribution): string {
  const pod = podText(a.pod);
  if (pod === undefined) return slowItem(a);
  // join, not concatenation: one flat string, not a rope that keeps every piece alive
  return [
    '    {\n      "line": ',
    v(a.line),
    ',\n      "time": ',
    v(a.time),
    ',\n      "code": ',
    v(a.code),
    ',\n      "flags": ',
    flagsText(a.flags),
    ',\n      "upstream": ',
    v(a.upstream),
    ',\n      "pod": ',
    pod,
    ',\n      "state": ',
    v(a.state),
    ',\n      "afterTerminationMs": ',
    v(a.afterTerminationMs),
    '\n    }',
  ].join('');
}

/**
 * The part of a record's --json item that needs neither its line number in the whole log
 * nor the history: made where the line is read (a scan worker), finished by
 * JsonItemFinisher where the history is.
 */
export function attributionJsonMiddle(r: AttributionInput): string {
  return [
    ',\n      "time": ',
    v(r.startTime),
    ',\n      "code": ',
    v(r.responseCode),
    ',\n      "flags": ',
    flagsText(r.responseFlags),
    ',\n      "upstream": ',
    v(r.upstreamHost),
    ',\n      "pod": ',
  ].join('');
}

/**
 * The pieces of an item that attributionJsonItem(attributeRecord(..)) prints, from the line
 * number, attributionJsonMiddle's text, the holder's pod text (podJson, or 'null') and the
 * lookup's state: pushed to `out`, for a writer that joins many items at once.
 */
function itemPieces(
  out: { push(piece: string): unknown },
  line: number,
  middle: string,
  pod: string,
  state: HolderState,
  afterTerminationMs: number | null,
): void {
  out.push('    {\n      "line": ');
  out.push(v(line));
  out.push(middle);
  out.push(pod);
  out.push(',\n      "state": ');
  out.push(STATE_JSON[state]);
  out.push(',\n      "afterTerminationMs": ');
  out.push(v(afterTerminationMs));
  out.push('\n    }');
}

const STATE_JSON: Record<HolderState, string> = {
  live: '"live"',
  terminating: '"terminating"',
  terminated: '"terminated"',
  unknown: '"unknown"',
};

/** The pod of an item as attributionJsonItem prints it. */
function podJson(namespace: string, name: string, uid: string | null): string {
  return podJsonOf([
    jsonString(namespace),
    jsonString(name),
    uid === null ? 'null' : jsonString(uid),
  ]);
}

/** podJson from its fields' JSON texts. */
function podJsonOf([namespace, name, uid]: KeyJson): string {
  // joined, not concatenated: one flat string (kept per holder, copied into every item naming it)
  return [
    '{\n        "namespace": ',
    namespace,
    ',\n        "name": ',
    name,
    ',\n        "uid": ',
    uid,
    '\n      }',
  ].join('');
}

/**
 * Finishes the --json items of records handed over as parts (line, time, normalised upstream
 * IP, attributionJsonMiddle) from a history, through attribution's own lookup (readHolder). A
 * long log has tens of thousands of failing requests: each holder's pod text is made once, and
 * from a table history (a store) the lookup reads its columns without making an object per
 * holder. The finisher is its own HolderReader: nothing is made per item but its pieces.
 */
export class JsonItemFinisher implements HolderReader<void> {
  /** Pod texts by table row: an array made at the table's size (written at random rows). */
  private rowPods: (string | undefined)[] | null = null;
  private readonly pods = new WeakMap<PodInterval, string>();
  /** The item being finished (set by itemInto for the reader's calls). */
  private out: { push(piece: string): unknown } = [];
  private line = 0;
  private middle = '';

  constructor(
    private readonly history: IpHistory,
    private readonly gapToleranceMs: number,
  ) {}

  item(line: number, time: number | null, ip: string | null, middle: string): string {
    const out: string[] = [];
    this.itemInto(out, line, time, ip, middle);
    return out.join('');
  }

  /** item() as pieces pushed to `out`: a long report joins many items' pieces at once. */
  itemInto(
    out: { push(piece: string): unknown },
    line: number,
    time: number | null,
    ip: string | null,
    middle: string,
  ): void {
    this.out = out;
    this.line = line;
    this.middle = middle;
    readHolder(this.history, ip, time, this.gapToleranceMs, this);
  }

  unattributable(): void {
    itemPieces(this.out, this.line, this.middle, 'null', 'unknown', null);
  }

  row(
    table: IntervalTable,
    holderRow: number,
    state: HolderState,
    afterTerminationMs: number | null,
  ): void {
    const pod = holderRow >= 0 ? this.rowPod(table, holderRow) : 'null';
    itemPieces(this.out, this.line, this.middle, pod, state, afterTerminationMs);
  }

  lookup(found: IpLookup): void {
    const holder = found.holder;
    let pod = 'null';
    if (holder) {
      pod = this.pods.get(holder) ?? podJson(holder.namespace, holder.name, holder.uid);
      this.pods.set(holder, pod);
    }
    itemPieces(this.out, this.line, this.middle, pod, found.state, found.afterTerminationMs);
  }

  private rowPod(table: IntervalTable, row: number): string {
    const pods = (this.rowPods ??= new Array<string | undefined>(table.size).fill(undefined));
    let pod = pods[row];
    if (pod === undefined) {
      pod = podJsonOf(table.keyJson(row));
      pods[row] = pod;
    }
    return pod;
  }
}

/** A JSON scalar as JSON.stringify prints it inside an object (NaN and Infinity as null). */
function v(x: string | number | null): string {
  if (x === null) return 'null';
  if (typeof x === 'number') return Number.isFinite(x) ? String(x) : 'null';
  return JSON.stringify(x);
}

function flagsText(flags: readonly string[]): string {
  if (flags.length === 0) return '[]';
  let out = '[';
  for (let k = 0; k < flags.length; k++)
    out += `${k ? ',' : ''}\n        ${typeof flags[k] === 'string' ? JSON.stringify(flags[k]) : 'null'}`;
  return `${out}\n      ]`;
}

/** The pod object's text, or undefined when it is not exactly {namespace, name, uid}. */
function podText(pod: Attribution['pod']): string | undefined {
  if (pod === null) return 'null';
  const keys = Object.keys(pod);
  if (
    keys.length !== 3 ||
    keys[0] !== 'namespace' ||
    keys[1] !== 'name' ||
    keys[2] !== 'uid' ||
    typeof pod.namespace !== 'string' ||
    typeof pod.name !== 'string' ||
    (pod.uid !== null && typeof pod.uid !== 'string')
  )
    return undefined;
  return podJson(pod.namespace, pod.name, pod.uid);
}

/** The general path, for attributions made elsewhere with unusual values. */
function slowItem(a: Attribution): string {
  // split/join gives one flat string; a regex replace here kept ~5x the text alive (V8)
  return `    ${JSON.stringify(attributionView(a), null, 2).split('\n').join('\n    ')}`;
}

/**
 * The report around its items, byte for byte what JSON.stringify({...head, attributions},
 * null, 2) prints: `open` + items joined by ",\n" + `close` when there are items, else `empty`.
 * Lets a long run write its items as they come instead of holding them.
 */
export function reportFrame(head: Record<string, unknown>): {
  open: string;
  separator: string;
  close: string;
  empty: string;
} {
  const empty = JSON.stringify({ ...head, attributions: [] }, null, 2);
  const tail = '"attributions": []\n}';
  if (!empty.endsWith(tail)) throw new Error('report head must not have an attributions field');
  return {
    open: `${empty.slice(0, -tail.length)}"attributions": [\n`,
    separator: ',\n',
    close: '\n  ]\n}\n',
    empty: `${empty}\n`,
  };
}

/** The whole report from the head fields and the items made by attributionJsonItem, in order. */
export function assembleReport(head: Record<string, unknown>, items: readonly string[]): string {
  const f = reportFrame(head);
  return items.length === 0 ? f.empty : `${f.open}${items.join(f.separator)}${f.close}`;
}
