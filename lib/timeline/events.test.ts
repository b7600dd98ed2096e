import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { KubeEvent, Pod } from '../kube/types';
import { eventsForPod, isEventOfPod } from './events';

/** The real kube-dns pod of the fixtures (uid dd4bbbd4-…, created 2018-12-03T16:59:57Z). */
function kubeDns(): Pod {
  const p = parseAllDocuments(readFixture('pods', 'kube-dns_pod_with_status.yaml'))
    .map((d) => d.toJS() as (Pod & { kind?: unknown }) | null)
    .find((d): d is Pod => d?.kind === 'Pod');
  if (!p) throw new Error('no Pod in the kube-dns fixture');
  return p;
}

const event = (reason: string, at: string, uid?: string): KubeEvent => ({
  metadata: { name: `kube-dns-548976df6c-d9kkv.${reason}`, namespace: 'kube-system' },
  involvedObject: {
    kind: 'Pod',
    namespace: 'kube-system',
    name: 'kube-dns-548976df6c-d9kkv',
    ...(uid ? { uid } : {}),
  },
  reason,
  firstTimestamp: at,
  lastTimestamp: at,
});

describe('the events of one pod incarnation', () => {
  const pod = kubeDns();
  const uid = pod.metadata.uid as string;

  it('tells incarnations of the same name apart by uid', () => {
    expect(uid).toBe('dd4bbbd4-f71c-11e8-af4f-42010a800072');
    const mine = event('Scheduled', '2018-12-03T16:59:57Z', uid);
    const earlier = event(
      'Unhealthy',
      '2018-12-03T16:59:29Z',
      'b0000000-0000-0000-0000-000000000000',
    );
    expect(eventsForPod(pod, [earlier, mine])).toEqual([mine]);
  });

  it('leaves out an event without uid stamped before the pod was created', () => {
    const before = event('Created', '2018-12-03T16:59:29Z');
    const after = event('Pulled', '2018-12-03T17:00:02Z');
    expect(isEventOfPod(pod, before)).toBe(false);
    expect(isEventOfPod(pod, after)).toBe(true);
    // a second of clock skew is the same pod
    expect(isEventOfPod(pod, event('Scheduled', '2018-12-03T16:59:56.500Z'))).toBe(true);
  });

  it('never takes another namespace or kind', () => {
    const other = {
      ...event('Pulled', '2018-12-03T17:00:02Z'),
      involvedObject: { kind: 'Node', name: 'n' },
    };
    expect(isEventOfPod(pod, other)).toBe(false);
  });
});
