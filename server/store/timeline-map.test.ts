import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Pod } from '../../lib/kube/types';
import { readFixture } from '../../test-support/fixtures';
import { diffStates, podState } from './pod-state';
import type { RecordedKubeEvent } from './kube-events';
import type { PodSnapshot, StoredTransition as StoreTransition } from './reader';
import { mapStoreTransitions, recordedToKubeEvent, snapshotToDeleted } from './timeline-map';

const kubeDns = parseAllDocuments(readFixture('pods', 'kube-dns_pod_with_status.yaml'))
  .map((d) => d.toJS() as unknown)
  .find((o): o is Pod => typeof o === 'object' && o !== null && 'status' in o) as Pod;

/** What the store writes for a change from `prev` to `next` seen at `at` via `via`. */
function rows(prev: Pod | null, next: Pod, at: number, via: string): StoreTransition[] {
  return diffStates(prev ? podState(prev) : null, podState(next)).map((c) => ({
    ...c,
    observedAt: at,
    via,
  }));
}

function notReady(p: Pod): Pod {
  const c = structuredClone(p);
  for (const s of c.status?.containerStatuses ?? []) s.ready = false;
  for (const k of c.status?.conditions ?? [])
    if (k.type === 'Ready' || k.type === 'ContainersReady') k.status = 'False';
  return c;
}

const OBS = Date.parse('2018-12-03T17:00:30Z');

describe('mapStoreTransitions on the real kube-dns pod', () => {
  const uid = kubeDns.metadata.uid ?? null;
  const statuses = kubeDns.status?.containerStatuses ?? [];

  it('turns a first sighting into the kubelet start times and skips its ready values', () => {
    const r = rows(null, kubeDns, OBS, 'watch');
    const m = mapStoreTransitions(uid, r);
    const starts = m.transitions.filter((t) => t.field === 'startedAt');
    expect(starts.map((t) => [t.container, t.time]).sort()).toEqual(
      statuses
        .map((s) => [s.name, new Date(s.state?.running?.startedAt as string).toISOString()])
        .sort(),
    );
    expect(starts.every((t) => t.timeSource === 'state' && t.podUid === (uid ?? ''))).toBe(true);
    expect(m.transitions.filter((t) => t.field === 'ready')).toEqual([]);
    // ready, started and restartCount of each container (where the fixture has them): counted
    const firstValues = statuses.reduce(
      (n, c) =>
        n +
        (typeof c.ready === 'boolean' ? 1 : 0) +
        (typeof c.started === 'boolean' ? 1 : 0) +
        (typeof c.restartCount === 'number' ? 1 : 0),
      0,
    );
    expect(firstValues).toBe(8); // 4 containers, no `started` in this 2018 pod
    expect(m.skipped).toBe(firstValues);
    expect(m.transitions.length + m.skipped).toBe(r.length);
  });

  it('gives a watched ready flip the receipt time (observer clock)', () => {
    const before = notReady(kubeDns);
    const all = [
      ...rows(null, before, OBS - 20_000, 'watch'),
      ...rows(before, kubeDns, OBS, 'watch'),
    ];
    const ready = mapStoreTransitions(uid, all).transitions.filter((t) => t.field === 'ready');
    expect(ready).toHaveLength(statuses.length);
    expect(ready.every((t) => t.value === true && t.timeSource === 'observed')).toBe(true);
    expect(new Set(ready.map((t) => t.time))).toEqual(new Set([new Date(OBS).toISOString()]));
  });

  it('places a ready flip seen on a relist at the Ready condition time of the same observation', () => {
    const before = notReady(kubeDns);
    const all = [
      ...rows(null, before, OBS - 20_000, 'list'),
      ...rows(before, kubeDns, OBS, 'list'),
    ];
    const ready = mapStoreTransitions(uid, all).transitions.filter((t) => t.field === 'ready');
    // ContainersReady has a null lastTransitionTime in the fixture: Ready's (17:00:20Z) is used
    expect(ready.map((t) => [t.time, t.timeSource])[0]).toEqual([
      '2018-12-03T17:00:20.000Z',
      'condition',
    ]);
  });

  it('bounds a relisted ready flip by the previous observation when no condition time exists', () => {
    const before = notReady(kubeDns);
    const after = structuredClone(kubeDns);
    after.status!.conditions = [];
    const b = structuredClone(before);
    b.status!.conditions = [];
    const all = [...rows(null, b, OBS - 20_000, 'list'), ...rows(b, after, OBS, 'reconcile')];
    const [first] = mapStoreTransitions(uid, all).transitions.filter((t) => t.field === 'ready');
    expect(first).toMatchObject({
      time: new Date(OBS).toISOString(),
      timeSource: 'bounded',
      notBefore: new Date(OBS - 20_000).toISOString(),
    });
  });
});

describe('mapStoreTransitions, hand-made cases', () => {
  const base = { reportedAt: null, observedAt: 1_700_000_000_000, via: 'watch' };

  it('skips the current run of a container first seen after two restarts (its first run is hidden)', () => {
    const m = mapStoreTransitions('u1', [
      { ...base, container: 'app', field: 'restartCount', oldValue: null, newValue: '2' },
      {
        ...base,
        container: 'app',
        field: 'state',
        oldValue: null,
        newValue: 'running',
        reportedAt: 1_699_999_990_000,
      },
    ]);
    expect(m.transitions).toEqual([]);
    expect(m.skipped).toBe(2);
  });

  it('keeps a later restart and its new start', () => {
    const m = mapStoreTransitions('u1', [
      {
        ...base,
        container: 'app',
        field: 'restartCount',
        oldValue: '0',
        newValue: '1',
        reportedAt: 1_699_999_999_000,
      },
      {
        ...base,
        container: 'app',
        field: 'state',
        oldValue: 'terminated:Error:1',
        newValue: 'running',
        reportedAt: 1_700_000_000_000,
      },
    ]);
    expect(m.transitions.map((t) => [t.field, t.value])).toEqual([
      ['restartCount', 1],
      ['startedAt', '2023-11-14T22:13:20.000Z'],
    ]);
  });

  it('never throws on unreadable values: bad numbers and times are skipped, odd fields kept', () => {
    const m = mapStoreTransitions(null, [
      { ...base, container: 'app', field: 'ready', oldValue: 'false', newValue: 'maybe' },
      { ...base, container: 'app', field: 'restartCount', oldValue: '0', newValue: 'x' },
      {
        ...base,
        container: 'app',
        field: 'state',
        oldValue: null,
        newValue: 'running',
        reportedAt: Number.NaN,
      },
      { ...base, container: null, field: 'phase', oldValue: 'Pending', newValue: 'Running' },
      {
        ...base,
        observedAt: Number.NaN,
        container: null,
        field: 'phase',
        oldValue: null,
        newValue: 'x',
      },
    ]);
    expect(m.transitions).toEqual([
      {
        time: '2023-11-14T22:13:20.000Z',
        podUid: '',
        container: '',
        field: 'phase',
        value: 'Running',
        timeSource: 'observed',
      },
    ]);
    expect(m.skipped).toBe(4);
  });
});

describe('recordedToKubeEvent and snapshotToDeleted', () => {
  const rec: RecordedKubeEvent = {
    involvedUid: 'u1',
    involvedKind: 'Pod',
    namespace: 'shop',
    name: 'web-1',
    reason: 'Unhealthy',
    message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
    type: 'Warning',
    fieldPath: 'spec.containers{istio-proxy}',
    source: 'kubelet',
    count: 3,
    firstTimestamp: Date.parse('2026-01-01T00:00:01Z'),
    lastTimestamp: Date.parse('2026-01-01T00:00:05Z'),
    observedAt: Date.parse('2026-01-01T00:00:06Z'),
  };

  it('rebuilds the wire shape the timeline reads (container, times, source)', () => {
    expect(recordedToKubeEvent(rec, 2)).toEqual({
      metadata: { name: 'web-1.Unhealthy.2', namespace: 'shop' },
      involvedObject: {
        kind: 'Pod',
        name: 'web-1',
        namespace: 'shop',
        uid: 'u1',
        fieldPath: 'spec.containers{istio-proxy}',
      },
      reason: 'Unhealthy',
      message: rec.message,
      type: 'Warning',
      count: 3,
      firstTimestamp: '2026-01-01T00:00:01.000Z',
      lastTimestamp: '2026-01-01T00:00:05.000Z',
      source: { component: 'kubelet' },
    });
  });

  it('falls back to the first time, then the observation time, when the event has no last time', () => {
    const e = recordedToKubeEvent(
      { ...rec, lastTimestamp: null, firstTimestamp: null, message: null },
      0,
    );
    expect(e.lastTimestamp).toBe('2026-01-01T00:00:06.000Z');
    expect(e.message).toBeUndefined();
  });

  it('lists a deleted snapshot, and refuses unreadable or live ones', () => {
    const snap: PodSnapshot = {
      podKey: 'u1',
      uid: 'u1',
      namespace: 'kube-system',
      name: kubeDns.metadata.name,
      object: kubeDns,
      firstSeen: 1,
      lastSeen: 2,
      deletedAt: Date.parse('2026-01-01T00:01:00Z'),
      deletedUncertain: true,
    };
    expect(snapshotToDeleted(snap)).toEqual({
      pod: kubeDns,
      deletedAt: '2026-01-01T00:01:00.000Z',
      uncertain: true,
    });
    expect(snapshotToDeleted({ ...snap, object: null })).toBeNull();
    expect(snapshotToDeleted({ ...snap, deletedAt: null })).toBeNull();
  });
});
