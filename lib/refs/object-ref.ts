/**
 * References to Istio and Kubernetes config objects (Sidecar, VirtualService, Gateway,
 * ConfigMap, ...) and to hosts as Istio scopes them.
 *
 * - `ns/name`: the key and the text of a namespaced object (objectKey), `Kind ns/name` with its
 *   kind (objectText, Istio's form).
 * - `ns/host`: a host as a Sidecar's `egress.hosts` and `exportTo` write it (`istio-system/*`,
 *   `shop/reviews.shop.svc.cluster.local`) (scopedHost).
 * - `Kind|ns|name`: the key of a finding's subject, the object a finding is about, also what
 *   the annotation and location indexes of findings are looked up by (subjectKey); `ns` is empty
 *   for a cluster-scoped object.
 */
import { RefError, nameProblem, namespaceProblem } from './ref-error';

export interface ObjectRef {
  readonly namespace: string;
  readonly name: string;
}

/** `ns/name` of a namespaced object. */
export function objectKey(namespace: string, name: string): string {
  return namespace + '/' + name;
}

/** `ns/name` of a Kubernetes object's metadata; `fallback` when it has no namespace. */
export function objectKeyOf(
  obj: { metadata: { namespace?: string; name: string } },
  fallback = 'default',
): string {
  return objectKey(obj.metadata.namespace ?? fallback, obj.metadata.name);
}

/** `Kind ns/name`, Istio's form. */
export function objectText(kind: string, ref: ObjectRef): string {
  return kind + ' ' + objectKey(ref.namespace, ref.name);
}

/** `ns/host`, a host scoped to a namespace (`*` for every host of it). */
export function scopedHost(namespace: string, host: string): string {
  return namespace + '/' + host;
}

/** `Kind|ns|name` of a finding's subject (an empty namespace for a cluster-scoped one). */
export function subjectKey(
  kind: string,
  namespace: string | null | undefined,
  name: string,
): string {
  return kind + '|' + (namespace ?? '') + '|' + name;
}

/** Reads `ns/name` of a namespaced object; throws a RefError naming the problem. */
export function parseObjectKey(text: string, expected = 'object reference'): ObjectRef {
  const slash = text.indexOf('/');
  if (slash < 0) throw new RefError(text, expected, 'expected NAMESPACE/NAME, there is no "/"');
  if (text.indexOf('/', slash + 1) >= 0)
    throw new RefError(text, expected, 'expected NAMESPACE/NAME, there is more than one "/"');
  const namespace = text.slice(0, slash);
  const name = text.slice(slash + 1);
  const why = namespaceProblem(namespace) ?? nameProblem(name);
  if (why) throw new RefError(text, expected, why);
  return { namespace, name };
}

/** parseObjectKey, or null when the text is not `ns/name`. */
export function tryParseObjectKey(text: string): ObjectRef | null {
  try {
    return parseObjectKey(text);
  } catch (e) {
    if (e instanceof RefError) return null;
    throw e;
  }
}
