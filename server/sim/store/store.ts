import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../lib/kube/types';
import type { SimKind } from './kinds';
import type { SimStore } from './contracts';
import { makeEntry, objectKey, type StoredEntry } from './entry';
import { RingHistory } from './history';
import { ALL_KINDS, KINDS, apiVersionOf } from './kinds';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change, as the watch history keeps it. */
export interface ChangeRecord {
  rv: number;
  type: ChangeType;
  kind: SimKind;
  entry: StoredEntry;
  /** The state before a MODIFIED change (selector-filtered watches turn it into ADDED/DELETED). */
  prev?: StoredEntry;
}

export interface StoreOptions {
  /** Source of creationTimestamp for new objects. */
  now: () => Date;
  /** Watch history size (changes kept for resuming watches); default 10,000. */
  historySize?: number;
  /** The resourceVersion to continue from (a restart with state); default 0. */
  startResourceVersion?: number;
  /** Told of every new resourceVersion (the state file reserves blocks of them). */
  onResourceVersion?: (rv: number) => void;
}

/** The simulator's store: SimStore plus what the API server needs (serialised entries, history). */
export interface SimStoreImpl extends SimStore {
  entries(kind: SimKind): readonly StoredEntry[];
  getEntry(kind: SimKind, namespace: string | undefined, name: string): StoredEntry | undefined;
  /** Changes after rv (all kinds), or 'expired' when the history no longer reaches back to rv. */
  changesSince(rv: number): ChangeRecord[] | 'expired';
  /** Be told of every change; returns the unsubscribe function. */
  subscribe(fn: (rec: ChangeRecord) => void): () => void;
  counts(): Record<SimKind, number>;
}

export const DEFAULT_HISTORY_SIZE = 10_000;

/** RFC 3339 at second precision, as the API server writes metadata timestamps. */
export function rfc3339Seconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function createSimStore(opts: StoreOptions): SimStoreImpl {
  const byKind = new Map<SimKind, Map<string, StoredEntry>>(ALL_KINDS.map((k) => [k, new Map()]));
  const sortedCache = new Map<SimKind, readonly StoredEntry[]>();
  const objCache = new Map<SimKind, readonly KubeObject[]>();
  let rv = opts.startResourceVersion ?? 0;
  // The world is built afresh on a restart, so no resourceVersion of the previous run (not even
  // its last) can be resumed from: a watch from one is 410 Gone and relists.
  const history = new RingHistory<ChangeRecord>(
    opts.historySize ?? DEFAULT_HISTORY_SIZE,
    rv > 0 ? rv + 1 : 0,
  );
  const listeners = new Set<(rec: ChangeRecord) => void>();
  const next = (): number => {
    rv += 1;
    opts.onResourceVersion?.(rv);
    return rv;
  };

  const table = (kind: SimKind): Map<string, StoredEntry> => {
    const t = byKind.get(kind);
    if (t === undefined) throw new TypeError(`unknown kind ${String(kind)}`);
    return t;
  };

  function record(kind: SimKind, type: ChangeType, entry: StoredEntry, prev?: StoredEntry): void {
    sortedCache.delete(kind);
    objCache.delete(kind);
    const rec: ChangeRecord = { rv: entry.rv, type, kind, entry };
    if (prev !== undefined) rec.prev = prev;
    history.push(rec);
    for (const fn of [...listeners]) {
      try {
        fn(rec);
      } catch (err) {
        console.error('[sim store] listener failed:', err);
      }
    }
  }

  function entries(kind: SimKind): readonly StoredEntry[] {
    const cached = sortedCache.get(kind);
    if (cached !== undefined) return cached;
    const list = [...table(kind).values()].sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : 0,
    );
    sortedCache.set(kind, list);
    return list;
  }

  return {
    upsert<T extends KubeObject>(kind: SimKind, obj: T): T {
      const info = KINDS[kind];
      if (typeof obj?.metadata?.name !== 'string' || obj.metadata.name === '') {
        throw new TypeError(`cannot store a ${info.kind} without metadata.name`);
      }
      const namespace = info.namespaced ? (obj.metadata.namespace ?? 'default') : undefined;
      const t = table(kind);
      const key = objectKey(namespace, obj.metadata.name);
      const prev = t.get(key);
      next();
      const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
      const meta: KubeObject['metadata'] = {
        ...metadata,
        namespace,
        uid: metadata.uid ?? prev?.obj.metadata.uid ?? randomUUID(),
        resourceVersion: String(rv),
        creationTimestamp:
          metadata.creationTimestamp ??
          prev?.obj.metadata.creationTimestamp ??
          rfc3339Seconds(opts.now()),
      };
      if (namespace === undefined) delete meta.namespace;
      const full = {
        apiVersion: apiVersionOf(info.group, info.versions[0] ?? 'v1'),
        kind: info.kind,
        metadata: meta,
        ...rest,
      };
      const entry = makeEntry(full, rv);
      t.set(key, entry);
      record(kind, prev === undefined ? 'ADDED' : 'MODIFIED', entry, prev);
      return entry.obj as T;
    },

    remove(kind: SimKind, namespace: string | undefined, name: string): boolean {
      const info = KINDS[kind];
      const t = table(kind);
      const key = objectKey(info.namespaced ? namespace : undefined, name);
      const prev = t.get(key);
      if (prev === undefined) return false;
      t.delete(key);
      next();
      const last = {
        ...prev.obj,
        metadata: { ...prev.obj.metadata, resourceVersion: String(rv) },
      };
      record(kind, 'DELETED', makeEntry(last, rv));
      return true;
    },

    get<T extends KubeObject>(kind: SimKind, namespace: string | undefined, name: string) {
      const ns = KINDS[kind].namespaced ? namespace : undefined;
      return table(kind).get(objectKey(ns, name))?.obj as T | undefined;
    },

    list<T extends KubeObject>(kind: SimKind): readonly T[] {
      const cached = objCache.get(kind);
      if (cached !== undefined) return cached as readonly T[];
      const list = entries(kind).map((e) => e.obj);
      objCache.set(kind, list);
      return list as readonly KubeObject[] as unknown as readonly T[];
    },

    resourceVersion: () => rv,
    entries,
    getEntry(kind, namespace, name) {
      const ns = KINDS[kind].namespaced ? namespace : undefined;
      return table(kind).get(objectKey(ns, name));
    },
    changesSince: (since) => history.since(since),
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    counts() {
      const out = {} as Record<SimKind, number>;
      for (const k of ALL_KINDS) out[k] = table(k).size;
      return out;
    },
  };
}
