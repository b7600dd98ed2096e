import { describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { readFixture } from '../../test-support/fixtures';
import { parse } from 'yaml';
import type { ObservedEvent } from '../kube/listwatch';
import { diffPod } from '../../lib/timeline/watch';
import { PodHistory } from './pod-history';

const AT = new Date('2026-01-01T00:00:10Z');

function ev(
  type: ObservedEvent<Pod>['type'],
  object: Pod,
  via: ObservedEvent<Pod>['via'] = 'watch',
) {
  return { type, object, via, observedAt: AT };
}

function pod(name: string, uid: string, ready: boolean, rv: string): Pod {
  return {
    metadata: { name, namespace: 'shop', uid, resourceVersion: rv },
    spec: { containers: [{ name: 'app' }, { name: 'istio-proxy' }] },
    status: {
      phase: 'Running',
      startTime: '2026-01-01T00:00:00Z',
      containerStatuses: [
        {
          name: 'app',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2026-01-01T00:00:01Z' } },
        },
        {
          name: 'istio-proxy',
          ready,
          restartCount: 0,
          state: { running: { startedAt: '2026-01-01T00:00:02Z' } },
        },
      ],
    },
  } as Pod;
}

describe('PodHistory', () => {
  it('records the ready flip of a live watch event at its receipt time', () => {
    const h = new PodHistory();
    h.apply(ev('ADDED', pod('web-1', 'u1', false, '1'), 'list'));
    h.apply(ev('MODIFIED', pod('web-1', 'u1', true, '2')));
    const ready = h.transitions('u1').filter((t) => t.field === 'ready');
    expect(ready).toEqual([
      expect.objectContaining({
        container: 'istio-proxy',
        value: true,
        time: AT.toISOString(),
        timeSource: 'observed',
      }),
    ]);
    expect(h.revision('u1')).toBe(2);
  });

  it('keeps a deleted pod, marked deleted, and finds it by name', () => {
    const h = new PodHistory();
    h.apply(ev('ADDED', pod('web-1', 'u1', true, '1'), 'list'));
    h.apply(ev('DELETED', pod('web-1', 'u1', true, '3')));
    expect(h.livePods()).toHaveLength(0);
    const found = h.find('shop', 'web-1');
    expect(found?.deleted).toEqual(
      expect.objectContaining({ deletedAt: AT.toISOString(), uncertain: false }),
    );
    // the same name again: the live one wins
    h.apply(ev('ADDED', pod('web-1', 'u2', false, '4')));
    expect(h.find('shop', 'web-1')?.deleted).toBeNull();
    expect(h.find('shop', 'web-1')?.pod.metadata.uid).toBe('u2');
  });

  it('marks a deletion found at a relist as uncertain', () => {
    const h = new PodHistory();
    h.apply(ev('ADDED', pod('web-1', 'u1', true, '1'), 'list'));
    h.apply(ev('DELETED', pod('web-1', 'u1', true, '1'), 'reconcile'));
    expect(h.deletedPods()[0]?.uncertain).toBe(true);
  });

  it('forgets the oldest deleted pods past its bound and counts them', () => {
    const h = new PodHistory({ maxDeleted: 2 });
    for (const i of [1, 2, 3]) {
      h.apply(ev('ADDED', pod(`p${i}`, `u${i}`, true, '1'), 'list'));
      h.apply(ev('DELETED', pod(`p${i}`, `u${i}`, true, '2')));
    }
    expect(h.deletedPods().map((d) => d.pod.metadata.name)).toEqual(['p2', 'p3']);
    expect(h.evicted).toBe(1);
    expect(h.transitions('u1')).toEqual([]);
  });

  it('bounds transitions per pod and counts what it drops', () => {
    const h = new PodHistory({ maxTransitionsPerPod: 2 });
    h.apply(ev('ADDED', pod('web-1', 'u1', false, '1'), 'list'));
    for (let i = 0; i < 4; i++)
      h.apply(ev('MODIFIED', pod('web-1', 'u1', i % 2 === 0, `${i + 2}`)));
    expect(h.transitions('u1')).toHaveLength(2);
    expect(h.droppedTransitions).toBeGreaterThan(0);
  });

  it('takes the start times of a real fixture pod at first sighting', () => {
    const p = parse(readFixture('pods/kube-dns_pod_with_status.yaml')) as Pod;
    const h = new PodHistory();
    h.apply(ev('ADDED', p, 'list'));
    const starts = (p.status?.containerStatuses ?? []).filter(
      (c) => (c.restartCount ?? 0) <= 1 && c.state?.running?.startedAt,
    ).length;
    expect(
      h.transitions(p.metadata.uid ?? '').filter((t) => t.field === 'startedAt').length,
    ).toBeGreaterThanOrEqual(starts);
    expect(h.livePods()).toHaveLength(1);
  });

  it('gives a listed, unchanged pod the transitions of its first sighting, and keeps them once it changes', () => {
    const p = parse(readFixture('pods/kube-dns_pod_with_status.yaml')) as Pod;
    const uid = p.metadata.uid ?? '';
    const h = new PodHistory();
    h.apply(ev('ADDED', p, 'list'));
    const first = diffPod(undefined, p);
    expect(first.length).toBeGreaterThan(0);
    expect(h.transitions(uid)).toEqual(first);
    // its first change keeps those and adds what changed, at the watch's time
    const restarted = structuredClone(p);
    const c = restarted.status!.containerStatuses![0]!;
    c.restartCount = (c.restartCount ?? 0) + 1;
    c.state = { running: { startedAt: '2026-01-01T00:05:00Z' } };
    h.apply(ev('MODIFIED', restarted));
    const after = h.transitions(uid);
    expect(after.slice(0, first.length)).toEqual(first);
    expect(after.slice(first.length)).toEqual(diffPod(p, restarted, AT.toISOString()));
    expect(after.length).toBeGreaterThan(first.length);
    // deleted while unchanged since its list: the first sighting's transitions are still there
    const q = pod('web-9', 'u9', true, '1');
    h.apply(ev('ADDED', q, 'list'));
    h.apply(ev('DELETED', q));
    expect(h.transitions('u9')).toEqual(diffPod(undefined, q));
  });

  it('keeps a pod first seen on the watch with its receipt time', () => {
    const h = new PodHistory();
    const q = pod('web-2', 'u2', true, '1');
    h.apply(ev('ADDED', q));
    expect(h.transitions('u2')).toEqual(diffPod(undefined, q, AT.toISOString()));
  });
});
