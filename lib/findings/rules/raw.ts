/**
 * How a rule reads the untyped parts of an object (spec, data, nested fields) it was given as
 * parsed: each reader answers with the value when it has the shape asked for, else an empty or
 * missing value, so a malformed field is a value a check can judge, never a throw.
 */
import type { KubeObject } from '../../kube/types';
import { asJsonObject, type JsonObject } from '../../json-object';

export type Raw = JsonObject;

/** The value when it is an object (not null, not an array), else null. */
export const obj = asJsonObject;
/** The value when it is a string, else undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** The value when it is an array, else []. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** The strings of an array value. */
export const strings = (v: unknown): string[] =>
  list(v).filter((s): s is string => typeof s === 'string');
/** The objects of an array value. */
export const objects = (v: unknown): Raw[] =>
  list(v).filter((x): x is Raw => asJsonObject(x) !== null);
/** The string entries of an object value (a label or annotation map). */
export const stringMap = (v: unknown): Record<string, string> => {
  // one loop, no entry arrays: rules read every pod's labels with it, more than once
  const out: Record<string, string> = {};
  const o = obj(v);
  if (o === null) return out;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (typeof x !== 'string') continue;
    // an own `__proto__` key stays a label (as Object.fromEntries keeps it), not a prototype
    if (k === '__proto__')
      Object.defineProperty(out, k, {
        value: x,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = x;
  }
  return out;
};
/** An object's `spec`, when it is an object. */
export const specOf = (o: KubeObject): Raw | null =>
  obj((o as KubeObject & { spec?: unknown }).spec);
/** An object's `data` (a ConfigMap's), when it is an object. */
export const dataOf = (o: KubeObject): Raw | null =>
  obj((o as KubeObject & { data?: unknown }).data);
