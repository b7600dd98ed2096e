/** Kubernetes Events as timeline inputs: which pod and container they are about, and when. */
import type { KubeEvent, Pod } from '../kube/types';
import { toMs } from './time';

export function eventsForPod(pod: Pod, events: readonly KubeEvent[]): KubeEvent[] {
  const uid = pod.metadata.uid;
  return events.filter((e) => {
    const o = e.involvedObject;
    if (o.kind !== undefined && o.kind !== 'Pod') return false;
    if (uid && o.uid) return o.uid === uid;
    return o.name === pod.metadata.name && (o.namespace ?? '') === (pod.metadata.namespace ?? '');
  });
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
