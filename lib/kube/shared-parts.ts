/**
 * Pods of one controller (a ReplicaSet, a StatefulSet, a Job) are stamped from one template: on a
 * real cluster their containers, with the injected istio-proxy's 30-odd env entries, its args and
 * probes, and their labels and annotations, are equal from pod to pod. Parsed from JSON, each pod
 * still carries its own copy. SharedParts keeps one copy per controller and part, compared value
 * by value: a pod whose part differs (a template changed mid-rollout, an injector that wrote
 * something per pod) keeps its own. Shared parts are frozen, so code that would change one pod's
 * part (and with it its siblings') throws instead.
 */
import { isJsonObject } from '../json-object';

/** Structural equality of JSON values (objects compared key by key, arrays item by item). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) {
    const va = ra[k];
    if (va === undefined ? !(k in rb) || rb[k] !== undefined : !jsonEqual(va, rb[k])) return false;
  }
  return true;
}

function deepFreeze<T>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  for (const x of Object.values(v)) deepFreeze(x);
  return Object.freeze(v);
}

/** Parts kept by default: some 15 per controller, for far more controllers than a cluster has. */
const DEFAULT_MAX_PARTS = 200_000;

export class SharedParts {
  private readonly parts = new Map<string, unknown>();
  /** Parts that were equal to the kept copy (and replaced by it). */
  shared = 0;

  constructor(private readonly maxParts = DEFAULT_MAX_PARTS) {}

  get size(): number {
    return this.parts.size;
  }

  /** The kept copy of `key`'s part, if any. */
  kept(key: string): unknown {
    return this.parts.get(key);
  }

  /**
   * The kept copy of `key`'s part when it equals `value`, else `value` (kept from now on, in
   * place of the old copy). The oldest parts are forgotten beyond maxParts.
   */
  share<T>(key: string, value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    const kept = this.parts.get(key);
    if (kept !== undefined && jsonEqual(kept, value)) {
      this.shared++;
      return kept as T;
    }
    return this.keep(key, value);
  }

  /**
   * For a flat record that siblings share in part (annotations with one written per pod, a
   * container's status whose image and imageID are the template's but whose start is the
   * pod's): the kept copy when equal, else `value` with each string equal to the kept copy's
   * taken from it (one string for every pod instead of one per pod), kept from now on.
   */
  shareValues<T>(key: string, value: T): T {
    if (!isJsonObject(value) || Object.isFrozen(value)) return value;
    const kept = this.parts.get(key);
    if (kept !== undefined && jsonEqual(kept, value)) {
      this.shared++;
      return kept as T;
    }
    if (isJsonObject(kept)) {
      const own: Record<string, unknown> = value;
      for (const k of Object.keys(own)) {
        const v = own[k];
        if (typeof v === 'string' && kept[k] === v) own[k] = kept[k];
      }
    }
    return this.keep(key, value);
  }

  private keep<T>(key: string, value: T): T {
    this.parts.delete(key);
    this.parts.set(key, deepFreeze(value));
    if (this.parts.size > this.maxParts) {
      const oldest = this.parts.keys().next();
      if (!oldest.done) this.parts.delete(oldest.value);
    }
    return value;
  }
}
