import { normalizeIp } from '../accesslog/address';
import {
  eachField,
  eachItem,
  FAIL,
  isTrue,
  keyTable,
  numberOf,
  readNumber,
  readString,
  seen,
  skipValue,
  stringText,
  timeOf,
  type FieldReader,
  type ItemReader,
} from './capture-bytes';
import type { PodEvent, PodEventType, PodObservation } from './types';

/**
 * One value of a watch capture read from its bytes into pod events, reading only the fields
 * observePod and eventsFromValue read (events.ts, observation.ts) and skipping the rest of
 * each pod. It gives what JSON.parse followed by eventsFromValue gives, or null where it is
 * not certain to (invalid JSON, a watch error, a value that is no pod, a key given twice):
 * the caller then takes that general path for this value.
 */
export type ValueEvents = { events: PodEvent[]; bookmarks: number } | null;

interface Ref {
  kind: string | null;
  name: string | null;
  controller: boolean;
}

/** What observePod reads of one pod, as it is read. */
class PodFields {
  meta = false;
  name: string | null = null;
  namespace: string | null = null;
  uid: string | null = null;
  creation: number | null = null;
  deletion: number | null = null;
  deletionGrace: number | null = null;
  firstRef: Ref | null = null;
  controllerRef: Ref | null = null;
  hostNetwork = false;
  node: string | null = null;
  terminationGrace: number | null = null;
  podIP: string | null = null;
  podIPs: string[] = [];
  startTime: number | null = null;
  firstCondition = Infinity;
  latest = -Infinity;
  /** containerStatuses: null when absent or no array, else how many. */
  statuses: number | null = null;
  /** The last exit of the containerStatuses read so far; null once one had not exited. */
  exitedAt: number | null = -Infinity;

  /** As new (one is read into per value, not made per value). */
  reset(): this {
    this.meta = false;
    this.name = this.namespace = this.uid = this.node = this.podIP = null;
    this.creation = this.deletion = this.deletionGrace = this.terminationGrace = null;
    this.firstRef = this.controllerRef = null;
    this.hostNetwork = false;
    if (this.podIPs.length) this.podIPs = [];
    this.startTime = this.statuses = null;
    this.firstCondition = Infinity;
    this.latest = -Infinity;
    this.exitedAt = -Infinity;
    return this;
  }
}

/** Reads into a slot of its own: the value's string (non-empty), time or number. */
let str: string | null = null;
let num: number | null = null;

function readStr(b: Uint8Array, p: number, e: number): number {
  str = null;
  if (b[p] !== 34) return skipValue(b, p, e);
  const end = readString(b, p, e);
  if (end === FAIL) return FAIL;
  const s = stringText(b, p, end);
  str = s === '' ? null : s;
  return end;
}

function readTime(b: Uint8Array, p: number, e: number): number {
  num = null;
  if (b[p] !== 34) return skipValue(b, p, e);
  const end = readString(b, p, e);
  if (end === FAIL) return FAIL;
  num = timeOf(b, p, end);
  return end;
}

function readNum(b: Uint8Array, p: number, e: number): number {
  num = null;
  const c = b[p] as number;
  if (c !== 45 && !(c >= 48 && c <= 57)) return skipValue(b, p, e);
  const end = readNumber(b, p, e);
  if (end === FAIL) return FAIL;
  const n = numberOf(b, p, end);
  num = Number.isFinite(n) ? n : null;
  return end;
}

/** An object value for `read`; any other value is skipped (observePod takes it as absent). */
function objectOr<T>(
  b: Uint8Array,
  p: number,
  e: number,
  keys: ReturnType<typeof keyTable>,
  into: T,
  read: FieldReader<T>,
): number {
  return b[p] === 123 ? eachField(b, p, e, keys, into, read) : skipValue(b, p, e);
}

function arrayOr<T>(b: Uint8Array, p: number, e: number, into: T, read: ItemReader<T>): number {
  return b[p] === 91 ? eachItem(b, p, e, into, read) : skipValue(b, p, e);
}

const META = keyTable([
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'ownerReferences',
]);
const readMeta: FieldReader<PodFields> = (f, key, b, p, e) => {
  if (key === 6) return arrayOr(b, p, e, f, readRef);
  if (key === 5) {
    p = readNum(b, p, e);
    f.deletionGrace = num;
    return p;
  }
  if (key >= 3) {
    p = readTime(b, p, e);
    if (key === 3) f.creation = num;
    else f.deletion = num;
    return p;
  }
  p = readStr(b, p, e);
  if (key === 0) f.name = str;
  else if (key === 1) f.namespace = str;
  else f.uid = str;
  return p;
};

const REF = keyTable(['kind', 'name', 'controller']);
const readRefField: FieldReader<Ref> = (r, key, b, p, e) => {
  if (key === 2) {
    r.controller = isTrue(b, p);
    return skipValue(b, p, e);
  }
  p = readStr(b, p, e);
  if (key === 0) r.kind = str;
  else r.name = str;
  return p;
};
const readRef: ItemReader<PodFields> = (f, b, p, e) => {
  if (b[p] !== 123) return skipValue(b, p, e);
  const ref: Ref = { kind: null, name: null, controller: false };
  p = eachField(b, p, e, REF, ref, readRefField);
  f.firstRef ??= ref;
  if (ref.controller) f.controllerRef ??= ref;
  return p;
};

const SPEC = keyTable(['hostNetwork', 'nodeName', 'terminationGracePeriodSeconds']);
const readSpec: FieldReader<PodFields> = (f, key, b, p, e) => {
  if (key === 0) {
    f.hostNetwork = isTrue(b, p);
    return skipValue(b, p, e);
  }
  if (key === 1) {
    p = readStr(b, p, e);
    f.node = str;
    return p;
  }
  p = readNum(b, p, e);
  f.terminationGrace = num;
  return p;
};

const STATUS = keyTable([
  'podIP',
  'podIPs',
  'startTime',
  'conditions',
  'containerStatuses',
  'initContainerStatuses',
  'ephemeralContainerStatuses',
]);
const latest = (f: PodFields, t: number | null) => {
  if (t !== null && t > f.latest) f.latest = t;
};
const readStatus: FieldReader<PodFields> = (f, key, b, p, e) => {
  switch (key) {
    case 0:
      p = readStr(b, p, e);
      f.podIP = str;
      return p;
    case 1:
      return arrayOr(b, p, e, f, readPodIp);
    case 2:
      p = readTime(b, p, e);
      f.startTime = num;
      latest(f, num);
      return p;
    case 3:
      return arrayOr(b, p, e, f, readCondition);
    case 4:
      if (b[p] !== 91) return skipValue(b, p, e);
      f.statuses = 0;
      return eachItem(b, p, e, f, readAppStatus);
    default:
      return arrayOr(b, p, e, f, readOtherStatus);
  }
};

const IP = keyTable(['ip']);
const readIpField: FieldReader<PodFields> = (f, _key, b, p, e) => {
  p = readStr(b, p, e);
  if (str !== null) f.podIPs.push(str);
  return p;
};
const readPodIp: ItemReader<PodFields> = (f, b, p, e) => objectOr(b, p, e, IP, f, readIpField);

const CONDITION = keyTable(['lastTransitionTime']);
const readConditionField: FieldReader<PodFields> = (f, _key, b, p, e) => {
  p = readTime(b, p, e);
  if (num !== null) {
    if (num < f.firstCondition) f.firstCondition = num;
    latest(f, num);
  }
  return p;
};
const readCondition: ItemReader<PodFields> = (f, b, p, e) =>
  objectOr(b, p, e, CONDITION, f, readConditionField);

/** One container status as it is read: the finish of its current state (lastExit). */
interface ContainerTimes {
  pod: PodFields;
  finished: number | null;
  /** Reading `state` (not `lastState`), and in it `terminated`. */
  inState: boolean;
  terminated: boolean;
}
const CONTAINER = keyTable(['state', 'lastState']);
const STATE = keyTable(['running', 'terminated']);
const TIMES = keyTable(['startedAt', 'finishedAt']);
const readContainerField: FieldReader<ContainerTimes> = (c, key, b, p, e) => {
  c.inState = key === 0;
  return objectOr(b, p, e, STATE, c, readStateField);
};
const readStateField: FieldReader<ContainerTimes> = (c, key, b, p, e) => {
  c.terminated = key === 1;
  return objectOr(b, p, e, TIMES, c, readTimesField);
};
const readTimesField: FieldReader<ContainerTimes> = (c, key, b, p, e) => {
  // a running state's finishedAt is no time observePod reads
  if (key === 1 && !c.terminated) return skipValue(b, p, e);
  p = readTime(b, p, e);
  latest(c.pod, num);
  if (key === 1 && c.inState) c.finished = num;
  return p;
};
const container: ContainerTimes = {
  pod: new PodFields(),
  finished: null,
  inState: false,
  terminated: false,
};
function readContainer(f: PodFields, b: Uint8Array, p: number, e: number): number {
  container.pod = f;
  container.finished = null;
  return b[p] === 123
    ? eachField(b, p, e, CONTAINER, container, readContainerField)
    : skipValue(b, p, e);
}
const readAppStatus: ItemReader<PodFields> = (f, b, p, e) => {
  p = readContainer(f, b, p, e);
  (f.statuses as number)++;
  const finished = container.finished;
  if (finished === null) f.exitedAt = null;
  else if (f.exitedAt !== null && finished > f.exitedAt) f.exitedAt = finished;
  return p;
};
const readOtherStatus: ItemReader<PodFields> = (f, b, p, e) => readContainer(f, b, p, e);

const POD_KEYS = ['metadata', 'spec', 'status'] as const;
/** A pod's metadata, spec or status (key 0, 1, 2), for a pod object or the top of a value. */
function readPodPart(f: PodFields, key: number, b: Uint8Array, p: number, e: number): number {
  if (key === 0) {
    if (b[p] !== 123) return skipValue(b, p, e);
    f.meta = true;
    return eachField(b, p, e, META, f, readMeta);
  }
  return key === 1
    ? objectOr(b, p, e, SPEC, f, readSpec)
    : objectOr(b, p, e, STATUS, f, readStatus);
}
const POD = keyTable(POD_KEYS);
const readPodField: FieldReader<PodFields> = readPodPart;

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
const top = new Top();
/** eventsFromValue's keys; the event time keys in the order it tries them. */
const TOP = keyTable([...POD_KEYS, 'type', 'object', 'items', 'time', 'observedAt', 'timestamp']);
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
  p = readTime(b, p, e);
  t.times[key - 6] = num;
  return p;
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

const WATCH_TYPES = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/** The pod events of bytes [s, e), one JSON value of a capture; null: read it with JSON.parse. */
export function captureValueEvents(b: Uint8Array, s: number, e: number): ValueEvents {
  const r = captureValueAt(b, s, e, Infinity);
  return r && r.end === e ? r : null;
}

/**
 * The pod events of the object at b[s] and where it ends (within b[s, limit)), with the line
 * ends it holds; null where it is not certain (see ValueEvents), not whole before `limit`, or
 * nested deeper than maxDepth.
 */
export function captureValueAt(
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
  // one answer object, filled again for every value (its reader takes what it needs at once)
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
    const pod = observe(t.object);
    const time = t.times.find((x) => x !== null) ?? null;
    return pod ? { events: [{ type: t.type as PodEventType, pod, time }], bookmarks: 0 } : null;
  }
  const pods = t.items ? (t.itemsOk ? t.items : null) : [t.self];
  const events: PodEvent[] = [];
  for (const f of pods ?? []) {
    const pod = observe(f);
    if (!pod) return null;
    events.push({ type: 'LISTED', pod, time: null });
  }
  return pods ? { events, bookmarks: 0 } : null;
}

/** observePod's result from the fields read, or null where it reports a problem. */
function observe(f: PodFields): PodObservation | null {
  if (!f.meta || f.name === null) return null;
  const ips: string[] = [];
  const add = (ip: string) => {
    const n = plainIpv4(ip) ? ip : normalizeIp(ip);
    if (!ips.includes(n)) ips.push(n);
  };
  if (f.podIP !== null) add(f.podIP);
  for (const ip of f.podIPs) add(ip);
  const ref = f.controllerRef ?? f.firstRef;
  const kind = ref?.kind;
  const ownerName = ref?.name;
  return {
    namespace: f.namespace ?? 'default',
    name: f.name,
    uid: f.uid,
    ips,
    hostNetwork: f.hostNetwork,
    node: f.node,
    owner: kind && ownerName ? ownerOf(kind, ownerName) : null,
    creationTimestamp: f.creation,
    startTime: f.startTime,
    firstConditionTime: f.firstCondition === Infinity ? null : f.firstCondition,
    latestTime: f.latest === -Infinity ? null : f.latest,
    exitedAt: f.statuses ? f.exitedAt : null,
    deletionTimestamp: f.deletion,
    deletionGracePeriodSeconds: f.deletionGrace,
    terminationGracePeriodSeconds: f.terminationGrace,
  };
}

/**
 * One owner object per workload (its pods' observations share it, as the store's intervals
 * do); forgotten past a few thousand workloads, so that it never grows without bound.
 */
const owners = new Map<string, Map<string, { kind: string; name: string }>>();
let ownerCount = 0;
function ownerOf(kind: string, name: string): { kind: string; name: string } {
  let byName = owners.get(kind);
  if (!byName) owners.set(kind, (byName = new Map()));
  let owner = byName.get(name);
  if (!owner) {
    if (++ownerCount > 20_000) {
      owners.clear();
      ownerCount = 1;
      owners.set(kind, (byName = new Map()));
    }
    owner = { kind, name };
    byName.set(name, owner);
  }
  return owner;
}

/** Digits and dots only: normalizeIp would give it back as it is. */
function plainIpv4(ip: string): boolean {
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c !== 46 && (c < 48 || c > 57)) return false;
  }
  return true;
}
