import type { EndpointSlice, Pod } from '../../../../lib/kube/types';
import type { FakeStore } from './fakes';
import { objectKey } from '../../../../lib/refs/object-ref';

/**
 * Replay the store's change history and report every moment at which two live pods shared an IP,
 * or an EndpointSlice named a pod (uid) that did not exist at that moment.
 */
export function replayProblems(store: FakeStore): string[] {
  const problems: string[] = [];
  const pods = new Map<string, Pod>();
  for (const ch of store.changes) {
    if (ch.kind === 'pods') {
      const key = objectKey(ch.object.metadata.namespace ?? '', ch.object.metadata.name);
      if (ch.type === 'DELETED') pods.delete(key);
      else pods.set(key, ch.object as Pod);
      const owners = new Map<string, string>();
      for (const [k, p] of pods) {
        const ip = p.status?.podIP;
        if (ip === undefined) continue;
        const prev = owners.get(ip);
        if (prev !== undefined) problems.push(`rv ${ch.rv}: ${ip} held by ${prev} and ${k}`);
        owners.set(ip, k);
      }
    }
    if (ch.kind === 'endpointslices' && ch.type !== 'DELETED') {
      const slice = ch.object as EndpointSlice;
      const uids = new Set([...pods.values()].map((p) => p.metadata.uid));
      for (const e of slice.endpoints ?? []) {
        // an endpoint without targetRef is an address outside the cluster (a selector-less Service)
        if (e.targetRef !== undefined && !uids.has(e.targetRef.uid))
          problems.push(
            `rv ${ch.rv}: slice ${slice.metadata.name} names gone pod ${e.targetRef?.name}`,
          );
      }
    }
  }
  return problems;
}
