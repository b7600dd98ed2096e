import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { Scenario, SimStore } from '../../server/sim/world/types';

export const START = new Date('2026-01-01T00:00:00Z');
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A pod as the API server would show it: pending without an IP, or running with one. */
export function simPod(
  name: string,
  opts: { ip?: string; start: Date; deletionTimestamp?: Date; ready?: boolean },
): Pod {
  const running = opts.ip !== undefined;
  const ready = opts.ready ?? running;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      labels: { app: 'payments' },
      ownerReferences: [{ kind: 'ReplicaSet', name: 'payments-7d4b9c8f6d', controller: true }],
      ...(opts.deletionTimestamp
        ? { deletionTimestamp: iso(opts.deletionTimestamp), deletionGracePeriodSeconds: 30 }
        : {}),
    },
    spec: {
      nodeName: 'node-a',
      terminationGracePeriodSeconds: 30,
      containers: [{ name: 'payments' }, { name: 'istio-proxy' }],
    },
    status: {
      phase: running ? 'Running' : 'Pending',
      startTime: iso(opts.start),
      ...(running ? { podIP: opts.ip, podIPs: [{ ip: opts.ip as string }] } : {}),
      conditions: [
        { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: iso(opts.start) },
      ],
      containerStatuses: ['payments', 'istio-proxy'].map((c) => ({
        name: c,
        ready,
        started: running,
        restartCount: 0,
        state: running
          ? { running: { startedAt: iso(opts.start) } }
          : { waiting: { reason: 'ContainerCreating' } },
      })),
    },
  };
}

export function simEvent(
  store: SimStore,
  pod: string,
  reason: string,
  count: number,
  at: Date,
): KubeEvent {
  const target = store.get<Pod>('pods', 'shop', pod);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod}.${reason.toLowerCase()}`, namespace: 'shop' },
    involvedObject: { kind: 'Pod', name: pod, namespace: 'shop', uid: target?.metadata.uid },
    reason,
    message: `${reason} for ${pod}`,
    type: 'Normal',
    count,
    firstTimestamp: iso(START),
    lastTimestamp: iso(at),
    source: { component: 'kubelet' },
  };
}

/** One running pod and its Started event; the test drives everything else. */
export const recorderScenario: Scenario = {
  name: 'store-recorder-test',
  description: 'a running pod in shop; the store tests create, change and delete the rest',
  start(ctx) {
    ctx.store.upsert('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'shop' },
    });
    ctx.store.upsert(
      'pods',
      simPod('payments-1', { ip: '10.9.0.1', start: new Date(START.getTime() - 3_600_000) }),
    );
    ctx.store.upsert('events', simEvent(ctx.store, 'payments-1', 'Started', 1, START));
  },
};
