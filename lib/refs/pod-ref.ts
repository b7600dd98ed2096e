/**
 * A pod reference: the one module that formats and parses every form in which meshdx meets a
 * pod's identity.
 *
 * - `ns/name`: the key of every map and set of pods, the text shown to users, the `?pod=` of a
 *   link (podKey).
 * - uid, else `ns/name`: a pod's identity across time, where a deleted pod and its namesake must
 *   stay apart (podIdKey; Prometheus and the history store may lack the uid).
 * - `name.ns`: the pod part of an Envoy node id and of the proxy's `--serviceNode`
 *   (podDotted). Namespaces are DNS labels, so the split is at the last dot even when the pod's
 *   name has dots.
 * - `Kubernetes//Pod/ns/name`: how ztunnel and istiod name a pod workload (podWorkloadUid).
 * - `Pod ns/name`: Istio's `Kind ns/name` form (istioctl, analyzer messages).
 * - `/pods/ns/name`: the page of a pod (podHref); `?uid=` names one pod of that name
 *   (podPageHref).
 *
 * Keys are plain strings made by one format function, so hot loops over 50,000 pods allocate no
 * objects per lookup.
 */
import { RefError, nameProblem, namespaceProblem } from './ref-error';

export interface PodRef {
  readonly namespace: string;
  readonly name: string;
}

/** A pod as the API, the history store or a view row names it. */
export interface PodIdentity extends PodRef {
  readonly uid?: string | null;
}

/**
 * A Kubernetes object's uid (metadata.uid) as a link may carry it: the API server writes a UUID;
 * other writers (a simulator, an import) a short name of letters, digits, "-", "_" and ".".
 */
export const OBJECT_UID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const EXPECTED = 'pod reference';
const KUBERNETES_POD = 'Kubernetes//Pod/';

/** `ns/name`. */
export function podKey(namespace: string, name: string): string {
  return namespace + '/' + name;
}

/** `ns/name` of a reference. */
export function podKeyOf(ref: PodRef): string {
  return podKey(ref.namespace, ref.name);
}

/** The reference of a Kubernetes object's metadata (a pod without namespace is in `default`). */
export function podRefOf(obj: {
  metadata: { namespace?: string; name: string; uid?: string };
}): PodRef {
  return { namespace: obj.metadata.namespace ?? 'default', name: obj.metadata.name };
}

/** `ns/name` of a Kubernetes object (a pod without namespace is in `default`). */
export function podKeyOfObject(obj: { metadata: { namespace?: string; name: string } }): string {
  return podKey(obj.metadata.namespace ?? 'default', obj.metadata.name);
}

/** The pod's uid when known, else `ns/name`: identity across a delete and a namesake. */
export function podIdKey(p: PodIdentity): string {
  return p.uid || podKey(p.namespace, p.name);
}

/** podIdKey of a Kubernetes object. */
export function podIdKeyOfObject(obj: {
  metadata: { namespace?: string; name: string; uid?: string };
}): string {
  return obj.metadata.uid || podKeyOfObject(obj);
}

/** Same pod by namespace and name. */
export function samePod(a: PodRef, b: PodRef): boolean {
  return a.namespace === b.namespace && a.name === b.name;
}

/** `name.ns`, the pod part of an Envoy node id. */
export function podDotted(ref: PodRef): string {
  return ref.name + '.' + ref.namespace;
}

/** `Kubernetes//Pod/ns/name`, how ztunnel and istiod name a pod workload. */
export function podWorkloadUid(ref: PodRef): string {
  return KUBERNETES_POD + podKeyOf(ref);
}

/** `Pod ns/name`, Istio's `Kind ns/name` form. */
export function podText(ref: PodRef): string {
  return 'Pod ' + podKeyOf(ref);
}

/** `ns/name` with each part escaped for a URL path (`/api/proxies/` + podPath). */
export function podPath(ref: PodRef): string {
  return encodeURIComponent(ref.namespace) + '/' + encodeURIComponent(ref.name);
}

/** `/pods/ns/name`: the pod's page. */
export function podHref(ref: PodRef): string {
  return '/pods/' + podPath(ref);
}

/**
 * The page of this very pod: `/pods/ns/name?uid=UID` when its uid is known (a pod deleted and
 * replaced by a namesake, as a StatefulSet's are, keeps its own page), else podHref.
 */
export function podPageHref(p: PodIdentity): string {
  return p.uid ? podHref(p) + '?uid=' + encodeURIComponent(p.uid) : podHref(p);
}

function checked(input: string, namespace: string, name: string): PodRef {
  const why = namespaceProblem(namespace) ?? nameProblem(name);
  if (why) throw new RefError(input, EXPECTED, why);
  return { namespace, name };
}

/** Reads `ns/name`; throws a RefError naming the problem. */
export function parsePodKey(text: string): PodRef {
  const slash = text.indexOf('/');
  if (slash < 0) throw new RefError(text, EXPECTED, 'expected NAMESPACE/NAME, there is no "/"');
  if (text.indexOf('/', slash + 1) >= 0)
    throw new RefError(text, EXPECTED, 'expected NAMESPACE/NAME, there is more than one "/"');
  return checked(text, text.slice(0, slash), text.slice(slash + 1));
}

/** Reads `name.ns` (split at the last dot: namespaces have none); throws a RefError. */
export function parsePodDotted(text: string): PodRef {
  const dot = text.lastIndexOf('.');
  if (dot < 0) throw new RefError(text, EXPECTED, 'expected NAME.NAMESPACE, there is no "."');
  return checked(text, text.slice(dot + 1), text.slice(0, dot));
}

/**
 * Reads any written form of a pod: `ns/name`, `Pod ns/name`, `Kubernetes//Pod/ns/name`.
 * Throws a RefError naming the problem (another kind of workload uid, a bad name, ...).
 */
export function parsePodRef(text: string): PodRef {
  const t = text.trim();
  if (t.startsWith('Kubernetes/')) {
    if (!t.startsWith(KUBERNETES_POD))
      throw new RefError(text, EXPECTED, 'a workload uid of another kind than Pod');
    return parsePodKey(t.slice(KUBERNETES_POD.length));
  }
  if (t.startsWith('Pod ')) return parsePodKey(t.slice(4).trim());
  return parsePodKey(t);
}

/** parsePodRef, or null when the text is not a pod reference. */
export function tryParsePodRef(text: string): PodRef | null {
  try {
    return parsePodRef(text);
  } catch (e) {
    if (e instanceof RefError) return null;
    throw e;
  }
}

/** `Kubernetes//Pod/ns/name` -> `ns/name`; null for other workload kinds or a bad uid. */
export function podKeyOfWorkloadUid(uid: string): string | null {
  if (!uid.startsWith(KUBERNETES_POD)) return null;
  const ref = tryParsePodRef(uid);
  return ref ? podKeyOf(ref) : null;
}
