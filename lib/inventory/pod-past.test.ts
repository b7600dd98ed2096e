import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { Pod } from '../kube/types';
import { IpLedger } from '../ledger/ledger';
import { observePod } from '../ledger/observation';
import type { PodEventType } from '../ledger/types';
import { otherIncarnations, podIpSpans, podIpsOf } from './pod-past';

/** The real kube-dns pod (status, uid and podIP as a cluster wrote them). */
function dnsPod(): Pod {
  const p = parseAllDocuments(readFixture('pods', 'kube-dns_pod_with_status.yaml'))
    .map((d) => d.toJS() as (Pod & { kind?: unknown }) | null)
    .find((d): d is Pod => d?.kind === 'Pod');
  if (!p) throw new Error('no Pod in kube-dns_pod_with_status.yaml');
  return p;
}

const withUid = (p: Pod, uid: string, created: string): Pod => ({
  ...p,
  metadata: { ...p.metadata, uid, creationTimestamp: created },
});

function event(type: PodEventType, pod: Pod, time: number) {
  const o = observePod(pod);
  if (typeof o === 'string') throw new Error(o);
  return { type, pod: o, time };
}

const T = (s: string) => Date.parse(s);

describe("a pod's past on its page", () => {
  it('lists the spans this pod held its IP, not those of a later pod of the same IP', () => {
    const pod = dnsPod();
    expect(podIpsOf(pod)).toEqual(['10.40.1.4']);
    const next = withUid(pod, 'later-uid', '2018-12-03T18:00:00Z');
    const ledger = new IpLedger().addAll([
      event('ADDED', pod, T('2018-12-03T17:00:01Z')),
      event('DELETED', pod, T('2018-12-03T17:30:00Z')),
      event('ADDED', next, T('2018-12-03T18:00:05Z')),
    ]);
    const spans = podIpSpans(pod, ledger);
    expect(spans).toEqual([
      {
        ip: '10.40.1.4',
        // the ADDED came after the kubelet's startTime: the span starts at the earlier one
        from: '2018-12-03T17:00:00.000Z',
        fromSource: 'startTime',
        deletionStartedAt: null,
        goneAt: '2018-12-03T17:30:00.000Z',
        goneUncertain: false,
      },
    ]);
    expect(podIpSpans(next, ledger).map((s) => s.goneAt)).toEqual([null]);
    // a hostNetwork pod holds the node's IP, never its own
    expect(podIpSpans({ ...pod, spec: { ...pod.spec, hostNetwork: true } }, ledger)).toEqual([]);
  });

  it('lists the other deleted pods of the same name by uid, the latest deletion first', () => {
    const pod = dnsPod();
    const a = withUid(pod, 'uid-a', '2018-12-01T00:00:00Z');
    const b = withUid(pod, 'uid-b', '2018-12-02T00:00:00Z');
    const elsewhere = { ...b, metadata: { ...b.metadata, namespace: 'other' } };
    const deleted = [
      { pod: a, deletedAt: '2018-12-01T12:00:00Z', uncertain: false },
      { pod: b, deletedAt: '2018-12-02T12:00:00Z', uncertain: true },
      { pod: elsewhere, deletedAt: '2018-12-02T13:00:00Z', uncertain: false },
      { pod, deletedAt: '2018-12-03T12:00:00Z', uncertain: false },
    ];
    // shown from an earlier pod's page: the live namesake comes first, marked live (no deletion)
    const live = withUid(pod, 'uid-live', '2018-12-04T00:00:00Z');
    expect(
      otherIncarnations(a, deleted, live).map((o) => [o.uid, o.deletion?.at ?? 'live']),
    ).toEqual([
      ['uid-live', 'live'],
      [pod.metadata.uid ?? null, '2018-12-03T12:00:00Z'],
      ['uid-b', '2018-12-02T12:00:00Z'],
    ]);
    // the live pod itself shown: not listed again
    expect(otherIncarnations(live, [], live)).toEqual([]);
    expect(otherIncarnations(pod, deleted)).toEqual([
      {
        uid: 'uid-b',
        createdAt: '2018-12-02T00:00:00Z',
        deletion: { at: '2018-12-02T12:00:00Z', observed: false },
      },
      {
        uid: 'uid-a',
        createdAt: '2018-12-01T00:00:00Z',
        deletion: { at: '2018-12-01T12:00:00Z', observed: true },
      },
    ]);
  });
});
