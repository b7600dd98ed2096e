import { FAIL, jsonBytes, keyTable, type FieldReader, type ItemReader } from './capture-bytes';
import { PodObserver } from './capture-observe';
import { POD, POD_KEYS, PodFields, podReaders } from './capture-pod';
import type { PodEvent, PodEventType } from './types';

/**
 * One value of a watch capture read from its bytes into pod events, reading only the fields
 * observePod and eventsFromValue read (events.ts, observation.ts) and skipping the rest of
 * each pod. It gives what JSON.parse followed by eventsFromValue gives, or null where it is
 * not certain to (invalid JSON, a watch error, a value that is no pod, a key given twice):
 * the caller then takes that general path for this value.
 */
export type ValueEvents = { events: PodEvent[]; bookmarks: number } | null;

/** The top of a value: a watch event, a list, or a pod itself. */
class Top {
  type: string | null = null;
  hasObject = false;
  object: PodFields | null = null;
  items: PodFields[] | null = null;
  itemsOk = true;
  self = new PodFields();
  /** The event's object, read into again for each value. */
  readonly eventObject = new PodFields();
  times: (number | null)[] = [null, null, null];

  reset(): this {
    this.type = null;
    this.hasObject = false;
    this.object = this.items = null;
    this.itemsOk = true;
    this.self.reset();
    this.times[0] = this.times[1] = this.times[2] = null;
    return this;
  }
}
/** eventsFromValue's keys; the event time keys in the order it tries them. */
const TOP = keyTable([...POD_KEYS, 'type', 'object', 'items', 'time', 'observedAt', 'timestamp']);

const WATCH_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/** The pod events of one value (see ValueEvents), and with the line ends it holds. */
export interface PodEventCapture {
  /** The pod events of bytes [s, e), one JSON value of a capture; null: read it with JSON.parse. */
  captureValueEvents(b: Uint8Array, s: number, e: number): ValueEvents;
  /**
   * The pod events of the object at b[s] and where it ends (within b[s, limit)), with the line
   * ends it holds; null where it is not certain (see ValueEvents), not whole before `limit`, or
   * nested deeper than maxDepth. The answer is one object, filled again for every value: its
   * reader takes what it needs at once.
   */
  captureValueAt(
    b: Uint8Array,
    s: number,
    limit: number,
    maxDepth: number,
  ): (NonNullable<ValueEvents> & { end: number; newlines: number; lastNewline: number }) | null;
}

/** One reader's value capture: its JSON byte functions, pod readers and scratch objects. */
export function podEventCapture(): PodEventCapture {
  const j = jsonBytes();
  const { eachField, eachItem, readString, seen, skipValue, stringText } = j;
  const { readPodField, readPodPart, readTimeInto } = podReaders(j);
  const observer = new PodObserver();
  const top = new Top();
  const readTopField: FieldReader<Top> = (t, key, b, p, e) => {
    if (key < 3) return readPodPart(t.self, key, b, p, e);
    if (key === 3) {
      if (b[p] !== 34) return skipValue(b, p, e);
      const end = readString(b, p, e);
      if (end !== FAIL) t.type = stringText(b, p, end);
      return end;
    }
    if (key === 4) {
      t.hasObject = true;
      if (b[p] !== 123) return skipValue(b, p, e);
      t.object = t.eventObject.reset();
      return eachField(b, p, e, POD, t.object, readPodField);
    }
    if (key === 5) {
      if (b[p] !== 91) return skipValue(b, p, e);
      t.items = [];
      return eachItem(b, p, e, t, readListItem);
    }
    return readTimeInto(b, p, e, t.times, key - 6);
  };
  const readListItem: ItemReader<Top> = (t, b, p, e) => {
    if (b[p] !== 123) {
      t.itemsOk = false;
      return skipValue(b, p, e);
    }
    const f = new PodFields();
    (t.items as PodFields[]).push(f);
    return eachField(b, p, e, POD, f, readPodField);
  };

  function captureValueEvents(b: Uint8Array, s: number, e: number): ValueEvents {
    const r = captureValueAt(b, s, e, Infinity);
    return r && r.end === e ? r : null;
  }

  function captureValueAt(
    b: Uint8Array,
    s: number,
    limit: number,
    maxDepth: number,
  ): (NonNullable<ValueEvents> & { end: number; newlines: number; lastNewline: number }) | null {
    if (b[s] !== 123) return null;
    seen.depth = 0;
    seen.maxDepth = maxDepth;
    seen.newlines = 0;
    seen.lastNewline = -1;
    const t = top.reset();
    const end = eachField(b, s, limit, TOP, t, readTopField);
    if (end === FAIL) return null;
    const r = eventsOf(t);
    if (!r) return null;
    answer.events = r.events;
    answer.bookmarks = r.bookmarks;
    answer.end = end;
    answer.newlines = seen.newlines;
    answer.lastNewline = seen.lastNewline;
    return answer;
  }
  const answer = { events: [] as PodEvent[], bookmarks: 0, end: 0, newlines: 0, lastNewline: -1 };

  function eventsOf(t: Top): ValueEvents {
    if (t.type !== null && t.hasObject) {
      if (t.type === 'BOOKMARK') return { events: [], bookmarks: 1 };
      if (!WATCH_TYPES.has(t.type) || !t.object) return null;
      const pod = observer.observe(t.object);
      const time = t.times[0] ?? t.times[1] ?? t.times[2] ?? null;
      return pod ? { events: [{ type: t.type as PodEventType, pod, time }], bookmarks: 0 } : null;
    }
    const pods = t.items ? (t.itemsOk ? t.items : null) : [t.self];
    const events: PodEvent[] = [];
    for (const f of pods ?? []) {
      const pod = observer.observe(f);
      if (!pod) return null;
      events.push({ type: 'LISTED', pod, time: null });
    }
    return pods ? { events, bookmarks: 0 } : null;
  }

  return { captureValueEvents, captureValueAt };
}
