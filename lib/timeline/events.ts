/** Kubernetes Events as timeline inputs: which pod and container they are about, and when. */
import type { KubeEvent, Pod } from '../kube/types';
import { toMs } from './time';

/** How much earlier than the pod's creation an event may be stamped (clock skew) and be its. */
const CREATION_SKEW_MS = 1000;

/**
 * Whether an Event is about this pod incarnation: by uid when both have one; else by name, and
 * not before the pod was created (an event filed by name before it is of an earlier pod of the
 * same name, and would squeeze this pod's life into the end of its chart).
 */
export function isEventOfPod(pod: Pod, e: KubeEvent): boolean {
  const o = e.involvedObject;
  if (o.kind !== undefined && o.kind !== 'Pod') return false;
  const uid = pod.metadata.uid;
  if (uid && o.uid) return o.uid === uid;
  if (o.name !== pod.metadata.name || (o.namespace ?? '') !== (pod.metadata.namespace ?? ''))
    return false;
  const created = toMs(pod.metadata.creationTimestamp);
  const last = eventLastMs(e);
  return created === null || last === null || last >= created - CREATION_SKEW_MS;
}

export function eventsForPod(pod: Pod, events: readonly KubeEvent[]): KubeEvent[] {
  return events.filter((e) => isEventOfPod(pod, e));
}

/** `spec.containers{name}` / `spec.initContainers{name}` -> name; null for the pod itself. */
export function eventContainer(e: KubeEvent): string | null {
  const m = /^spec\.(?:initContainers|containers|ephemeralContainers)\{([^}]*)\}$/.exec(
    e.involvedObject.fieldPath ?? '',
  );
  return m ? (m[1] as string) : null;
}

/** Latest occurrence: eventTime (events.k8s.io), lastTimestamp, firstTimestamp, creation. */
export function eventLastMs(e: KubeEvent): number | null {
  return (
    toMs(e.lastTimestamp) ??
    toMs(e.eventTime) ??
    toMs(e.firstTimestamp) ??
    toMs(e.metadata.creationTimestamp)
  );
}

export function eventFirstMs(e: KubeEvent): number | null {
  return (
    toMs(e.firstTimestamp) ??
    toMs(e.eventTime) ??
    toMs(e.lastTimestamp) ??
    toMs(e.metadata.creationTimestamp)
  );
}

/** True when the event was written by the kubelet of the pod's own node (same clock as container states). */
export function sameNodeKubelet(e: KubeEvent, pod: Pod): boolean {
  const src = e.source;
  if (!src || src.component !== 'kubelet') return false;
  return !pod.spec.nodeName || !src.host || src.host === pod.spec.nodeName;
}

export function isProbeFailure(e: KubeEvent, kinds: readonly string[]): boolean {
  if (e.reason !== 'Unhealthy') return false;
  const msg = e.message ?? '';
  return kinds.some(
    (k) => msg.startsWith(`${k} probe failed`) || msg.startsWith(`${k} probe errored`),
  );
}
