/** Hand-made pods and observed events for store tests (not a test file itself). */
import type { KubeEvent, Pod } from '../../../lib/kube/types';
import type { ObservedEvent } from '../../../server/kube/listwatch';

export const T0 = Date.parse('2024-06-01T10:00:00Z');
export const SEC = 1000;
export const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface PodArgs {
  name: string;
  uid?: string;
  ip?: string;
  start?: number;
  /** When deletion was requested (deletionTimestamp = this + grace). */
  deletionAt?: number;
  grace?: number;
  ready?: boolean;
  restarts?: number;
  phase?: string;
  rv?: number;
}

export function makePod(a: PodArgs): Pod {
  const ready = a.ready ?? a.ip !== undefined;
  const start = a.start ?? T0;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: a.name,
      namespace: 'shop',
      uid: a.uid ?? `uid-${a.name}`,
      resourceVersion: String(a.rv ?? 1),
      creationTimestamp: iso(start - 2 * SEC),
      ownerReferences: [{ kind: 'ReplicaSet', name: 'payments-5d9f', controller: true }],
      ...(a.deletionAt !== undefined
        ? {
            deletionTimestamp: iso(a.deletionAt + (a.grace ?? 30) * SEC),
            deletionGracePeriodSeconds: a.grace ?? 30,
          }
        : {}),
    },
    spec: {
      nodeName: 'node-1',
      containers: [{ name: 'app' }, { name: 'istio-proxy' }],
      terminationGracePeriodSeconds: a.grace ?? 30,
    },
    status: {
      phase: a.phase ?? (a.ip ? 'Running' : 'Pending'),
      startTime: iso(start),
      ...(a.ip ? { podIP: a.ip, podIPs: [{ ip: a.ip }] } : {}),
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(start) },
      ],
      containerStatuses: ['app', 'istio-proxy'].map((name) => ({
        name,
        ready,
        started: a.ip !== undefined,
        restartCount: name === 'app' ? (a.restarts ?? 0) : 0,
        state: a.ip
          ? { running: { startedAt: iso(start) } }
          : { waiting: { reason: 'ContainerCreating' } },
      })),
    },
  };
}

export function observed<T extends Pod | KubeEvent>(
  type: ObservedEvent<T>['type'],
  object: T,
  at: number,
  via: ObservedEvent<T>['via'] = 'watch',
): ObservedEvent<T> {
  return { type, object, observedAt: new Date(at), via };
}

export function makeEvent(a: {
  uid: string;
  pod: string;
  reason: string;
  count?: number;
  last: number;
  podUid?: string;
}): KubeEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${a.pod}.${a.uid}`, namespace: 'shop', uid: a.uid },
    involvedObject: {
      kind: 'Pod',
      name: a.pod,
      namespace: 'shop',
      uid: a.podUid ?? `uid-${a.pod}`,
      fieldPath: 'spec.containers{istio-proxy}',
    },
    reason: a.reason,
    message: `${a.reason} happened`,
    type: a.reason === 'Unhealthy' ? 'Warning' : 'Normal',
    count: a.count ?? 1,
    firstTimestamp: iso(a.last - 10 * SEC),
    lastTimestamp: iso(a.last),
    source: { component: 'kubelet', host: 'node-1' },
  };
}
