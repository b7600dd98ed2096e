import type { IpHistory } from './ip-history';
import {
  DEFAULT_GAP_TOLERANCE_MS,
  endFrom,
  locate,
  lookupIn,
  type Located,
  type SortedIntervalView,
} from './lookup';
import type { FromSource, IpLookup, PodInterval } from './types';
import { podIdKey } from '../refs/pod-ref';

/** Who held an interval: the text fields of a PodInterval, read only when the interval is. */
export type IntervalIdentity = Pick<PodInterval, 'namespace' | 'name' | 'uid' | 'owner' | 'node'>;

/** A holder's namespace, name and uid as JSON texts (the uid 'null' when it has none). */
export type KeyJson = [namespace: string, name: string, uid: string];

/** How a table reads the identity texts it was given. */
export interface IdentityReader {
  decode(identity: string): IntervalIdentity;
  /**
   * keyJson without decoding, for the texts where that is certain; null for the others
   * (which are then decoded). Optional.
   */
  keyJson?(identity: string): KeyJson | null;
}

/**
 * JSON.stringify of a string, without the call for the usual one (printable ASCII without a
 * quote or a backslash: nothing to escape).
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** The numbers of one interval as a table row takes them (null where the interval has none). */
export type IntervalTimes = Omit<PodInterval, 'ip' | keyof IntervalIdentity>;

/** A start's sources, strongest first: addRow takes a source as its index here. */
export const FROM_SOURCES: readonly FromSource[] = [
  'event',
  'startTime',
  'condition',
  'creationTimestamp',
];

/** The index addRow takes for a start's source; an unknown one counts as the weakest. */
export function fromSourceIndex(s: string): number {
  const k = (FROM_SOURCES as readonly string[]).indexOf(s);
  return k < 0 ? FROM_SOURCES.length - 1 : k;
}
const NONE = Number.NaN;
const num = (x: number): number | null => (Number.isNaN(x) ? null : x);
const orNone = (x: number | null): number => (x === null ? NONE : x);

/**
 * Pod IP intervals in columns: the times of every interval in typed arrays, grouped by IP and
 * sorted by start (then pod key), and who held each as one opaque text decoded only when a
 * lookup reports that interval. A store's whole history (50,000 intervals and more) is read
 * for every `meshdx attribute` run: columns load in a fraction of the time and memory that an
 * object per interval takes. Lookups follow lookup.ts like every other history.
 */
export class IntervalTable implements IpHistory {
  private readonly groups: Map<string, number>;
  private readonly start: Int32Array;
  private readonly from: Float64Array;
  private readonly deletionStartedAt: Float64Array;
  private readonly graceEndsAt: Float64Array;
  private readonly goneAt: Float64Array;
  private readonly lastSeenAt: Float64Array;
  /** fromSource index (bits 0-1), goneUncertain (bit 2). */
  private readonly bits: Uint8Array;
  private readonly ips: string[];
  private readonly identities: string[];
  private readonly decoded: (PodInterval | undefined)[];

  private constructor(
    b: IntervalTableBuilder,
    { order, start }: { order: Int32Array; start: Int32Array },
    private readonly reader: IdentityReader,
  ) {
    const n = order.length;
    this.groups = b.groups;
    this.start = start;
    this.from = new Float64Array(n);
    this.deletionStartedAt = new Float64Array(n);
    this.graceEndsAt = new Float64Array(n);
    this.goneAt = new Float64Array(n);
    this.lastSeenAt = new Float64Array(n);
    this.bits = new Uint8Array(n);
    this.ips = new Array<string>(n);
    this.identities = new Array<string>(n);
    this.decoded = new Array<PodInterval | undefined>(n);
    for (let k = 0; k < n; k++) {
      const r = order[k] as number;
      this.from[k] = b.from[r] as number;
      this.deletionStartedAt[k] = b.deletionStartedAt[r] as number;
      this.graceEndsAt[k] = b.graceEndsAt[r] as number;
      this.goneAt[k] = b.goneAt[r] as number;
      this.lastSeenAt[k] = b.lastSeenAt[r] as number;
      this.bits[k] = b.bits[r] as number;
      this.ips[k] = b.ips[r] as string;
      this.identities[k] = b.identities[r] as string;
    }
  }

  /**
   * Builds the table from rows added to `builder` in any order. Rows of one IP that start at
   * the same time are ordered by pod key, or (tiesAsAdded) kept in the order they were added,
   * as another history (IpLedger) orders them.
   */
  static from(
    builder: IntervalTableBuilder,
    reader: IdentityReader,
    options: { tiesAsAdded?: boolean } = {},
  ): IntervalTable {
    return new IntervalTable(
      builder,
      builder.order((text) => reader.decode(text), options.tiesAsAdded),
      reader,
    );
  }

  get size(): number {
    return this.from.length;
  }

  at(ip: string, time: number, gapToleranceMs = DEFAULT_GAP_TOLERANCE_MS): IpLookup {
    const g = this.groups.get(ip);
    return lookupIn(ip, time, g === undefined ? EMPTY : this.view(g), gapToleranceMs);
  }

  /**
   * locate() of the lookup `at` makes, its index a row of this table: what a caller that
   * only needs the state and who held the IP (identity) reads, without the lookup's objects.
   */
  locateRow(ip: string, time: number, gapToleranceMs = DEFAULT_GAP_TOLERANCE_MS): Located {
    const g = this.groups.get(ip);
    if (g === undefined) return locate(time, EMPTY, gapToleranceMs);
    const at = locate(time, this.view(g), gapToleranceMs);
    if (at.index >= 0) at.index += this.start[g] as number;
    return at;
  }

  /** Who held the interval of a row, decoded from its text, not kept (callers keep what they make of it). */
  identity(k: number): IntervalIdentity {
    return this.decoded[k] ?? this.reader.decode(this.identities[k] as string);
  }

  /**
   * The namespace, name and uid of a row's holder as JSON texts (what JSON.stringify writes),
   * read straight from its identity text where the table's reader can (see keyJson).
   */
  keyJson(k: number): KeyJson {
    const quick = this.reader.keyJson?.(this.identities[k] as string);
    if (quick) return quick;
    const who = this.identity(k);
    return [
      jsonString(who.namespace),
      jsonString(who.name),
      who.uid === null ? 'null' : jsonString(who.uid),
    ];
  }

  /** Intervals of one IP, sorted by start. */
  history(ip: string): PodInterval[] {
    const g = this.groups.get(ip);
    if (g === undefined) return [];
    const out: PodInterval[] = [];
    for (let k = this.start[g] as number; k < (this.start[g + 1] as number); k++)
      out.push(this.interval(k));
    return out;
  }

  /** Every interval, by IP then start (each made when asked, as lookups make theirs). */
  intervals(): PodInterval[] {
    const out: PodInterval[] = [];
    for (const ip of [...this.groups.keys()].sort()) out.push(...this.history(ip));
    return out;
  }

  private view(g: number): SortedIntervalView {
    return new GroupView(this, this.start[g] as number, this.start[g + 1] as number);
  }

  /** @internal the row k of the table (GroupView reads through these). */
  fromAt(k: number): number {
    return this.from[k] as number;
  }
  endAt(k: number): number | null {
    return endFrom(
      num(this.goneAt[k] as number),
      this.uncertainAt(k),
      num(this.graceEndsAt[k] as number),
    );
  }
  goneAtAt(k: number): number | null {
    return num(this.goneAt[k] as number);
  }
  uncertainAt(k: number): boolean {
    return ((this.bits[k] as number) & 4) !== 0;
  }
  startSeenAt(k: number): boolean {
    return ((this.bits[k] as number) & 3) === 0;
  }
  deletionStartedAtAt(k: number): number | null {
    return num(this.deletionStartedAt[k] as number);
  }
  interval(k: number): PodInterval {
    const had = this.decoded[k];
    if (had) return had;
    const who = this.reader.decode(this.identities[k] as string);
    const i: PodInterval = {
      ip: this.ips[k] as string,
      namespace: who.namespace,
      name: who.name,
      uid: who.uid,
      owner: who.owner,
      node: who.node,
      from: this.from[k] as number,
      fromSource: FROM_SOURCES[(this.bits[k] as number) & 3] as FromSource,
      deletionStartedAt: num(this.deletionStartedAt[k] as number),
      graceEndsAt: num(this.graceEndsAt[k] as number),
      goneAt: num(this.goneAt[k] as number),
      goneUncertain: this.uncertainAt(k),
      lastSeenAt: num(this.lastSeenAt[k] as number),
    };
    this.decoded[k] = i;
    return i;
  }
}

class GroupView implements SortedIntervalView {
  constructor(
    private readonly t: IntervalTable,
    private readonly base: number,
    private readonly stop: number,
  ) {}
  get length(): number {
    return this.stop - this.base;
  }
  from(k: number): number {
    return this.t.fromAt(this.base + k);
  }
  end(k: number): number | null {
    return this.t.endAt(this.base + k);
  }
  goneAt(k: number): number | null {
    return this.t.goneAtAt(this.base + k);
  }
  goneUncertain(k: number): boolean {
    return this.t.uncertainAt(this.base + k);
  }
  startSeen(k: number): boolean {
    return this.t.startSeenAt(this.base + k);
  }
  deletionStartedAt(k: number): number | null {
    return this.t.deletionStartedAtAt(this.base + k);
  }
  interval(k: number): PodInterval {
    return this.t.interval(this.base + k);
  }
}

const EMPTY: SortedIntervalView = {
  length: 0,
  from: () => NONE,
  end: () => null,
  goneAt: () => null,
  goneUncertain: () => false,
  startSeen: () => false,
  deletionStartedAt: () => null,
  interval: () => {
    throw new Error('empty interval list');
  },
};

/** The pod key intervals of one IP are ordered by when they start at the same time. */
const keyOf = (w: IntervalIdentity): string => podIdKey(w);

/** Collects rows (in any order) for an IntervalTable. */
export class IntervalTableBuilder {
  readonly groups = new Map<string, number>();
  readonly from: number[] = [];
  readonly deletionStartedAt: number[] = [];
  readonly graceEndsAt: number[] = [];
  readonly goneAt: number[] = [];
  readonly lastSeenAt: number[] = [];
  readonly bits: number[] = [];
  readonly ips: string[] = [];
  readonly identities: string[] = [];
  private readonly groupOf: number[] = [];

  get count(): number {
    return this.from.length;
  }

  add(ip: string, t: IntervalTimes, identity: string): void {
    this.addRow(
      ip,
      t.from,
      fromSourceIndex(t.fromSource),
      orNone(t.deletionStartedAt),
      orNone(t.graceEndsAt),
      orNone(t.goneAt),
      t.goneUncertain,
      orNone(t.lastSeenAt),
      identity,
    );
  }

  /**
   * add() without an object per row, for loaders of many rows: times as numbers, NaN where
   * there is none; the start's source as its index in fromSourceIndex order.
   */
  addRow(
    ip: string,
    from: number,
    fromSource: number,
    deletionStartedAt: number,
    graceEndsAt: number,
    goneAt: number,
    goneUncertain: boolean,
    lastSeenAt: number,
    identity: string,
  ): void {
    let g = this.groups.get(ip);
    if (g === undefined) this.groups.set(ip, (g = this.groups.size));
    this.groupOf.push(g);
    this.ips.push(ip);
    this.from.push(from);
    this.deletionStartedAt.push(deletionStartedAt);
    this.graceEndsAt.push(graceEndsAt);
    this.goneAt.push(goneAt);
    this.lastSeenAt.push(lastSeenAt);
    this.bits.push((fromSource & 3) | (goneUncertain ? 4 : 0));
    this.identities.push(identity);
  }

  /**
   * Row indices grouped by IP (groups in first-seen order), each group sorted by start then
   * pod key (tiesAsAdded: in the order added): group g is order[start[g], start[g + 1]).
   */
  order(
    decode: (identity: string) => IntervalIdentity,
    tiesAsAdded = false,
  ): { order: Int32Array; start: Int32Array } {
    const n = this.count;
    const groupCount = this.groups.size;
    const start = new Int32Array(groupCount + 1);
    for (let r = 0; r < n; r++) {
      const g = (this.groupOf[r] as number) + 1;
      start[g] = (start[g] as number) + 1;
    }
    for (let g = 0; g < groupCount; g++)
      start[g + 1] = (start[g + 1] as number) + (start[g] as number);
    const fill = start.slice(0, groupCount);
    const order = new Int32Array(n);
    for (let r = 0; r < n; r++) {
      const g = this.groupOf[r] as number;
      const at = fill[g] as number;
      order[at] = r;
      fill[g] = at + 1;
    }
    const compare = (a: number, b: number): number => {
      const fa = this.from[a] as number;
      const fb = this.from[b] as number;
      if (fa !== fb || tiesAsAdded) return fa - fb;
      const ka = keyOf(decode(this.identities[a] as string));
      const kb = keyOf(decode(this.identities[b] as string));
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    };
    for (let g = 0; g < groupCount; g++) {
      const lo = start[g] as number;
      const hi = start[g + 1] as number;
      if (hi - lo > 32) {
        order.set(Array.from(order.subarray(lo, hi)).sort(compare), lo);
        continue;
      }
      // groups are short (an IP's holders over the history): insertion sort, in place
      for (let k = lo + 1; k < hi; k++) {
        const r = order[k] as number;
        let j = k - 1;
        while (j >= lo && compare(order[j] as number, r) > 0) {
          order[j + 1] = order[j] as number;
          j--;
        }
        order[j + 1] = r;
      }
    }
    return { order, start };
  }
}
