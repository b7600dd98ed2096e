/**
 * What meshdx keeps of a watched object: the fields lib/kube/types.ts models (every field a view
 * reads; a container status's containerID, modelled for the simulator, is left out), nothing
 * else. A pod on a real cluster carries managedFields, volumes, resources, security contexts,
 * tolerations and the last-applied annotation, often more than half its size; at 50,000 pods
 * that is hundreds of MB no view looks at. The watch feed trims each object once, as it
 * arrives, so the cache, the history recorder and every view hold the same trimmed pod.
 *
 * An object whose shape is not what a field's type says (a Pod without spec, containers that are
 * not a list) keeps that part as it came: the shape checks downstream must still see the problem.
 */
import { SharedParts } from './shared-parts';
import type { KubeObject } from './types';
import { isJsonObject } from '../json-object';

/** true: keep the value whole; an object: keep only these keys; [shape]: a list of that shape. */
type Shape = true | { readonly [key: string]: Shape } | readonly [Shape];

const META: Shape = {
  name: true,
  namespace: true,
  uid: true,
  resourceVersion: true,
  generation: true,
  creationTimestamp: true,
  deletionTimestamp: true,
  deletionGracePeriodSeconds: true,
  labels: true,
  annotations: true,
  ownerReferences: true,
  generateName: true,
};

const CONTAINER: Shape = {
  name: true,
  image: true,
  command: true,
  args: true,
  env: true,
  ports: true,
  restartPolicy: true,
  lifecycle: true,
  readinessProbe: true,
  livenessProbe: true,
  startupProbe: true,
};

/**
 * Not containerID: no view reads it, and it is the one value of a container's status that is
 * unique to every container (a 77-character runtime ID, three per meshed pod: 5.8 MB at 20,000
 * pods), so it also kept siblings' statuses from being one shared string.
 */
const CONTAINER_STATUS: Shape = {
  name: true,
  ready: true,
  started: true,
  restartCount: true,
  image: true,
  imageID: true,
  state: true,
  lastState: true,
};

const POD: Shape = {
  apiVersion: true,
  kind: true,
  metadata: META,
  spec: {
    nodeName: true,
    hostNetwork: true,
    containers: [CONTAINER],
    initContainers: [CONTAINER],
    terminationGracePeriodSeconds: true,
    restartPolicy: true,
    serviceAccountName: true,
  },
  status: {
    phase: true,
    podIP: true,
    podIPs: true,
    hostIP: true,
    startTime: true,
    conditions: true,
    containerStatuses: [CONTAINER_STATUS],
    initContainerStatuses: [CONTAINER_STATUS],
    reason: true,
    message: true,
  },
};

/** Annotations no view reads and that can be as large as the object itself. */
const DROPPED_ANNOTATIONS = ['kubectl.kubernetes.io/last-applied-configuration'];

/** A shape with its keys listed once (trimming 50,000 pods walks them 50,000 times). */
type Compiled = true | { keys: readonly (readonly [string, Compiled])[] } | { item: Compiled };

function compile(shape: Shape): Compiled {
  if (shape === true) return true;
  if (Array.isArray(shape)) return { item: compile((shape as readonly [Shape])[0]) };
  return {
    keys: Object.entries(shape as { readonly [key: string]: Shape }).map(
      ([k, sub]) => [k, compile(sub)] as const,
    ),
  };
}

function pick(value: unknown, shape: Compiled): unknown {
  if (shape === true) return value;
  if ('item' in shape) {
    if (!Array.isArray(value)) return value;
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = pick(value[i], shape.item);
    return out;
  }
  if (!isJsonObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, sub] of shape.keys) {
    const v = value[k];
    if (v !== undefined || k in value) out[k] = pick(v, sub);
  }
  return out;
}

const POD_COMPILED = compile(POD);

function trimAnnotations(meta: unknown): void {
  if (!isJsonObject(meta) || !isJsonObject(meta.annotations)) return;
  const a = meta.annotations;
  if (!DROPPED_ANNOTATIONS.some((k) => k in a)) return;
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (!DROPPED_ANNOTATIONS.includes(k)) kept[k] = v;
  meta.annotations = kept;
}

/** The controller's uid of a trimmed pod (its template's identity), or null. */
function controllerUid(meta: Record<string, unknown>): string | null {
  const refs = meta.ownerReferences;
  if (!Array.isArray(refs)) return null;
  for (const r of refs as unknown[])
    if (isJsonObject(r) && r.controller === true && typeof r.uid === 'string') return r.uid;
  return null;
}

/** The containers lists of a pod's spec, each with the key prefix of its kept copies. */
function containerLists(pod: Record<string, unknown>, owner: string): [string, unknown[]][] {
  const spec = pod.spec;
  if (!isJsonObject(spec)) return [];
  const out: [string, unknown[]][] = [];
  if (Array.isArray(spec.containers)) out.push([`${owner}/c`, spec.containers]);
  if (Array.isArray(spec.initContainers)) out.push([`${owner}/i`, spec.initContainers]);
  return out;
}

/** After the trim: the parts in common with the controller's other pods become one kept copy. */
function shareTemplateParts(pod: Record<string, unknown>, parts: SharedParts, owner: string) {
  const meta = pod.metadata;
  if (isJsonObject(meta)) {
    for (const k of ['labels', 'annotations'] as const)
      if (k in meta) meta[k] = parts.shareValues(`${owner}/${k}`, meta[k]);
    if ('ownerReferences' in meta)
      meta.ownerReferences = parts.share(`${owner}/ownerReferences`, meta.ownerReferences);
  }
  for (const [key, list] of containerLists(pod, owner))
    for (let i = 0; i < list.length; i++) list[i] = parts.share(`${key}${i}`, list[i]);
  // the status is the pod's own, but its conditions' types and its containers' names, images
  // and image digests are the template's: one string each for the controller's pods
  const status = pod.status;
  if (!isJsonObject(status)) return;
  for (const [k, tag] of STATUS_LISTS) {
    const list = status[k];
    if (Array.isArray(list))
      for (let i = 0; i < list.length; i++)
        list[i] = parts.shareValues(`${owner}/${tag}${i}`, list[i]);
  }
}

/** Status lists whose items share values with the same item of sibling pods. */
const STATUS_LISTS = [
  ['conditions', 'k'],
  ['containerStatuses', 's'],
  ['initContainerStatuses', 'is'],
] as const;

/**
 * The pod as meshdx keeps it: the fields of the Pod type, without the last-applied annotation.
 * With `parts`, what it has in common with its controller's other pods is one shared, frozen copy
 * (shared-parts.ts): treat a trimmed pod as read-only.
 */
export function trimPod<T extends KubeObject>(pod: T, parts?: SharedParts): T {
  if (!isJsonObject(pod)) return pod;
  const owner = parts && isJsonObject(pod.metadata) ? controllerUid(pod.metadata) : null;
  const out = pick(pod, POD_COMPILED) as T;
  trimAnnotations(out.metadata);
  if (parts && owner !== null) shareTemplateParts(out as Record<string, unknown>, parts, owner);
  return out;
}

/** Any other object: without metadata.managedFields and the last-applied annotation. */
export function trimObject<T extends KubeObject>(obj: T): T {
  if (!isJsonObject(obj) || !isJsonObject(obj.metadata)) return obj;
  const { managedFields: _drop, ...metadata } = obj.metadata as Record<string, unknown>;
  const out = { ...obj, metadata } as T;
  trimAnnotations(out.metadata);
  return out;
}

/**
 * The trim of one resource's objects (by plural name), for one feed: pods share their template's
 * parts within it.
 */
export function trimFor(plural: string): <T extends KubeObject>(o: T) => T {
  if (plural !== 'pods') return trimObject;
  const parts = new SharedParts();
  return (o) => trimPod(o, parts);
}
