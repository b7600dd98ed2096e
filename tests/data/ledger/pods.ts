/** Hand-made pods and events for ledger tests (not a test file itself). */
import type { PodEvent } from '../../../lib/ledger/types';
import { observePod } from '../../../lib/ledger/observation';

export const T0 = Date.parse('2024-06-01T10:00:00Z');
export const MIN = 60_000;

export interface PodSpecArgs {
  name: string;
  uid?: string;
  ip?: string | string[];
  start?: number;
  deletionAt?: number;
  grace?: number;
  node?: string;
}

export function podJson(a: PodSpecArgs): Record<string, unknown> {
  const ips = a.ip === undefined ? [] : Array.isArray(a.ip) ? a.ip : [a.ip];
  return {
    kind: 'Pod',
    metadata: {
      name: a.name,
      namespace: 'shop',
      uid: a.uid ?? `uid-${a.name}`,
      creationTimestamp: a.start !== undefined ? new Date(a.start - 2000).toISOString() : undefined,
      ownerReferences: [{ kind: 'ReplicaSet', name: 'payments-5d9f', controller: true }],
      ...(a.deletionAt !== undefined
        ? {
            deletionTimestamp: new Date(a.deletionAt + (a.grace ?? 30) * 1000).toISOString(),
            deletionGracePeriodSeconds: a.grace ?? 30,
          }
        : {}),
    },
    spec: { nodeName: a.node ?? 'node-1', containers: [{ name: 'app' }] },
    status: {
      phase: ips.length ? 'Running' : 'Pending',
      ...(ips.length ? { podIP: ips[0], podIPs: ips.map((ip) => ({ ip })) } : {}),
      ...(a.start !== undefined ? { startTime: new Date(a.start).toISOString() } : {}),
    },
  };
}

export function ev(type: PodEvent['type'], a: PodSpecArgs, time: number | null): PodEvent {
  const pod = observePod(podJson(a));
  if (typeof pod === 'string') throw new Error(pod);
  return { type, pod, time };
}

/**
 * One pod's life on an IP as the watch shows it: added at T0, given `ip` (started at T0) a
 * second later, its deletion started `deletionAt`, DELETED `goneAfterMs` after that.
 */
export function heldThenDeleted(
  name: string,
  ip: string,
  deletionAt: number,
  goneAfterMs: number,
): PodEvent[] {
  return [
    ev('ADDED', { name }, T0),
    ev('MODIFIED', { name, ip, start: T0 }, T0 + 1000),
    ev('MODIFIED', { name, ip, start: T0, deletionAt }, deletionAt),
    ev('DELETED', { name, ip, start: T0, deletionAt }, deletionAt + goneAfterMs),
  ];
}
