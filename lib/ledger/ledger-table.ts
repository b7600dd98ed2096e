import {
  fromSourceIndex,
  IntervalTable,
  IntervalTableBuilder,
  type IdentityReader,
  type KeyJson,
  type IntervalIdentity,
} from './interval-table';
import type { PodInterval } from './types';

/**
 * An IpLedger's intervals, in the order it gives them pod by pod (eachInterval), as an
 * IntervalTable that answers every lookup as the ledger does, ties in start included (both
 * sort an IP's intervals stably by start): columns of numbers and one identity text per
 * interval instead of an object per interval and per pod. A capture of 50,000 pods is then
 * held in a few megabytes, not a hundred, while the log is read.
 */
export function intervalTableOf(intervals: Iterable<PodInterval>): IntervalTable {
  return intervalTableFromRows(intervalRowsOf(intervals));
}

/**
 * Intervals as plain columns, in the order given: what a worker thread that read a history
 * hands over (the number columns move without a copy, see intervalRowsTransfer).
 */
export interface IntervalRows {
  ips: string[];
  from: Float64Array;
  /** fromSourceIndex of each start's source. */
  fromSource: Uint8Array;
  /** NaN where there is none. */
  deletionStartedAt: Float64Array;
  graceEndsAt: Float64Array;
  goneAt: Float64Array;
  goneUncertain: Uint8Array;
  lastSeenAt: Float64Array;
  /** [namespace, name, uid, owner kind, owner name, node] as JSON.stringify writes it. */
  identities: string[];
}

/** Intervals one by one: any iterable of them, or what hands them to a visitor (IpLedger). */
export type Intervals =
  Iterable<PodInterval> | { forEachInterval(visit: (interval: PodInterval) => void): void };

export function intervalRowsOf(intervals: Intervals): IntervalRows {
  // number arrays grow without an object per interval; typed at the end
  const cols = { from: [] as number[], dsa: [] as number[], grace: [] as number[] };
  const more = {
    gone: [] as number[],
    seen: [] as number[],
    source: [] as number[],
    unc: [] as number[],
  };
  const ips: string[] = [];
  const identities: string[] = [];
  const none = (x: number | null) => (x === null ? Number.NaN : x);
  const add = (i: PodInterval): void => {
    ips.push(i.ip);
    cols.from.push(i.from);
    cols.dsa.push(none(i.deletionStartedAt));
    cols.grace.push(none(i.graceEndsAt));
    more.gone.push(none(i.goneAt));
    more.seen.push(none(i.lastSeenAt));
    more.source.push(fromSourceIndex(i.fromSource));
    more.unc.push(i.goneUncertain ? 1 : 0);
    // one flat string made natively (not a tree of a dozen pieces kept per row)
    identities.push(
      JSON.stringify([
        i.namespace,
        i.name,
        i.uid,
        i.owner?.kind ?? null,
        i.owner?.name ?? null,
        i.node,
      ]),
    );
  };
  if ('forEachInterval' in intervals) intervals.forEachInterval(add);
  else for (const i of intervals) add(i);
  return {
    ips,
    from: Float64Array.from(cols.from),
    fromSource: Uint8Array.from(more.source),
    deletionStartedAt: Float64Array.from(cols.dsa),
    graceEndsAt: Float64Array.from(cols.grace),
    goneAt: Float64Array.from(more.gone),
    goneUncertain: Uint8Array.from(more.unc),
    lastSeenAt: Float64Array.from(more.seen),
    identities,
  };
}

/** The buffers of the number columns, to move them to another thread (postMessage). */
export function intervalRowsTransfer(rows: IntervalRows): ArrayBuffer[] {
  const { from, fromSource, deletionStartedAt, graceEndsAt, goneAt, goneUncertain, lastSeenAt } =
    rows;
  return [from, fromSource, deletionStartedAt, graceEndsAt, goneAt, goneUncertain, lastSeenAt].map(
    (a) => a.buffer as ArrayBuffer,
  );
}

export function intervalTableFromRows(rows: IntervalRows): IntervalTable {
  const builder = new IntervalTableBuilder();
  for (let k = 0; k < rows.ips.length; k++)
    builder.addRow(
      rows.ips[k] as string,
      rows.from[k] as number,
      rows.fromSource[k] as number,
      rows.deletionStartedAt[k] as number,
      rows.graceEndsAt[k] as number,
      rows.goneAt[k] as number,
      rows.goneUncertain[k] === 1,
      rows.lastSeenAt[k] as number,
      rows.identities[k] as string,
    );
  return IntervalTable.from(builder, identityReader(), { tiesAsAdded: true });
}

/**
 * The namespace, name and uid texts of an identity intervalRowsOf wrote, cut out of it: each
 * string there is what JSON.stringify writes (see intervalRowsOf), so where the text holds no
 * backslash (no string had anything escaped) each runs from its quote to the next. Null for
 * any other text (it is then decoded).
 */
export function identityKeyJson(text: string): KeyJson | null {
  if (text.charCodeAt(0) !== 91 /* [ */ || text.includes('\\')) return null;
  const namespace = quotedAt(text, 1);
  if (namespace === null || text.charCodeAt(namespace.end) !== 44 /* , */) return null;
  const name = quotedAt(text, namespace.end + 1);
  if (name === null || text.charCodeAt(name.end) !== 44) return null;
  const u = name.end + 1;
  if (text.startsWith('null', u)) return [namespace.text, name.text, 'null'];
  const uid = quotedAt(text, u);
  return uid === null ? null : [namespace.text, name.text, uid.text];
}

/** The quoted string at text[p] (no escapes in it), with its quotes, and where it ends. */
function quotedAt(text: string, p: number): { text: string; end: number } | null {
  if (text.charCodeAt(p) !== 34 /* " */) return null;
  const close = text.indexOf('"', p + 1);
  return close < 0 ? null : { text: text.slice(p, close + 1), end: close + 1 };
}

/** Reads the identity texts intervalTableOf writes; owners are shared between a workload's pods. */
function identityReader(): IdentityReader {
  const owners = new Map<string, { kind: string; name: string }>();
  return {
    keyJson: identityKeyJson,
    decode(text) {
      const [namespace, name, uid, kind, ownerName, node] = JSON.parse(text) as (string | null)[];
      let owner: IntervalIdentity['owner'] = null;
      if (kind != null && ownerName != null) {
        const key = JSON.stringify([kind, ownerName]);
        owner = owners.get(key) ?? { kind, name: ownerName };
        owners.set(key, owner);
      }
      return {
        namespace: namespace as string,
        name: name as string,
        uid: uid ?? null,
        owner,
        node: node ?? null,
      };
    },
  };
}
