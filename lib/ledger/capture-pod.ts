import {
  FAIL,
  isTrue,
  keyTable,
  readNumber,
  type FieldReader,
  type ItemReader,
  type JsonBytes,
} from './capture-bytes';

/**
 * The fields of one pod that observePod reads (observation.ts), read from the bytes of a
 * capture (see capture-event.ts): its metadata, spec and status, the rest skipped.
 */

/** An owner reference as it is read. */
interface Ref {
  kind: string | null;
  name: string | null;
  controller: boolean;
}

/** What observePod reads of one pod, as it is read. */
export class PodFields {
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

export const POD_KEYS = ['metadata', 'spec', 'status'] as const;
const META = keyTable([
  'name',
  'namespace',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'ownerReferences',
]);
const REF = keyTable(['kind', 'name', 'controller']);
const SPEC = keyTable(['hostNetwork', 'nodeName', 'terminationGracePeriodSeconds']);
const STATUS = keyTable([
  'podIP',
  'podIPs',
  'startTime',
  'conditions',
  'containerStatuses',
  'initContainerStatuses',
  'ephemeralContainerStatuses',
]);
const IP = keyTable(['ip']);
const CONDITION = keyTable(['lastTransitionTime']);
const CONTAINER = keyTable(['state', 'lastState']);
const STATE = keyTable(['running', 'terminated']);
const TIMES = keyTable(['startedAt', 'finishedAt']);
export const POD = keyTable(POD_KEYS);

const latest = (f: PodFields, t: number | null) => {
  if (t !== null && t > f.latest) f.latest = t;
};

/** One container status as it is read: the finish of its current state (lastExit). */
interface ContainerTimes {
  pod: PodFields;
  finished: number | null;
  /** Reading `state` (not `lastState`), and in it `terminated`. */
  inState: boolean;
  terminated: boolean;
}

/** A pod's field readers over one reader's JSON byte functions (see jsonBytes). */
export interface PodReaders {
  /** A pod's metadata, spec or status (key 0, 1, 2), for a pod object or the top of a value. */
  readPodPart: FieldReader<PodFields>;
  readPodField: FieldReader<PodFields>;
  /** A time value at p into out[index] (null when it is no time); the position after it. */
  readTimeInto(b: Uint8Array, p: number, e: number, out: (number | null)[], index: number): number;
}

/** The pod field readers of one reader, over its JSON byte functions. */
export function podReaders(j: JsonBytes): PodReaders {
  const { eachField, eachItem, numberOf, readString, skipValue, stringText, timeOf } = j;
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

  const readIpField: FieldReader<PodFields> = (f, _key, b, p, e) => {
    p = readStr(b, p, e);
    if (str !== null) f.podIPs.push(str);
    return p;
  };
  const readPodIp: ItemReader<PodFields> = (f, b, p, e) => objectOr(b, p, e, IP, f, readIpField);

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

  /** A time value at p into out[index] (null when it is no time); the position after it. */
  function readTimeInto(
    b: Uint8Array,
    p: number,
    e: number,
    out: (number | null)[],
    index: number,
  ): number {
    p = readTime(b, p, e);
    out[index] = num;
    return p;
  }

  return { readPodPart, readPodField: readPodPart, readTimeInto };
}
