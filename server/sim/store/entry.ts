import type { KubeObject } from '../../../lib/kube/types';
import { objectKey as formatObjectKey } from '../../../lib/refs/object-ref';

/**
 * One version of one stored object, serialised once. `rest` is the object's JSON without its
 * apiVersion and without the opening brace, so that the same bytes can be served under any
 * version of the group (`{"apiVersion":"<requested>",` + rest) without serialising again.
 */
export interface StoredEntry {
  readonly obj: KubeObject;
  readonly rest: string;
  readonly rv: number;
  readonly key: string;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return formatObjectKey(namespace ?? '', name);
}

/** Serialise an object once; the stored copy is parsed back so that callers cannot alias it. */
export function makeEntry(obj: KubeObject, rv: number): StoredEntry {
  const { apiVersion: _drop, ...withoutVersion } = obj;
  const full = JSON.stringify(withoutVersion);
  const rest = full.slice(1);
  const copy = JSON.parse(renderRest(obj.apiVersion ?? '', rest)) as KubeObject;
  return { obj: copy, rest, rv, key: objectKey(obj.metadata.namespace, obj.metadata.name) };
}

function renderRest(apiVersion: string, rest: string): string {
  const head = `{"apiVersion":${JSON.stringify(apiVersion)}`;
  return rest === '}' ? `${head}}` : `${head},${rest}`;
}

/** The entry's JSON with apiVersion set to the one the client asked for. */
export function renderEntry(entry: StoredEntry, apiVersion: string): string {
  return renderRest(apiVersion, entry.rest);
}
