import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { diffStates, podState } from './pod-state';

/** The real kube-dns pod (GKE 2018) with its status. */
const raw = readFixture('pods', 'kube-dns_pod_with_status.yaml');
const fixture = parse(raw) as {
  status: {
    conditions: { type: string; status: string }[];
    containerStatuses: { name: string; ready: boolean; restartCount: number }[];
  };
};
const clone = <T>(v: T): T => structuredClone(v);

describe('podState on a real pod', () => {
  const state = podState(fixture);

  it('reads phase, every condition and ready/restartCount/state of every container', () => {
    const containers = fixture.status.containerStatuses.length;
    const conditions = fixture.status.conditions.length;
    // containerStatuses in the fixture carry no `started` (older kubelet)
    expect(state.size).toBe(1 + conditions + containers * 3);
    expect(state.get('|phase')?.value).toBe('Running');
    expect(state.get('|condition:Ready')).toEqual({
      container: null,
      field: 'condition:Ready',
      value: 'True',
      reportedAt: Date.parse('2018-12-03T17:00:20Z'),
    });
    // ContainersReady has lastTransitionTime: null in the fixture
    expect(state.get('|condition:ContainersReady')?.reportedAt).toBeNull();
    expect(state.get('kubedns|state')).toEqual({
      container: 'kubedns',
      field: 'state',
      value: 'running',
      reportedAt: Date.parse('2018-12-03T17:00:10Z'),
    });
    expect(state.get('sidecar|ready')?.value).toBe('true');
  });

  it('an unchanged pod has no changes', () => {
    expect(diffStates(state, podState(clone(fixture)))).toEqual([]);
  });

  it('a container crash: ready, state, restartCount and the Ready condition change', () => {
    const next = clone(fixture) as unknown as {
      status: {
        conditions: { type: string; status: string; lastTransitionTime: string }[];
        containerStatuses: Record<string, unknown>[];
      };
    };
    const sidecar = next.status.containerStatuses.find((c) => c.name === 'sidecar')!;
    sidecar.ready = false;
    sidecar.restartCount = 1;
    sidecar.state = { waiting: { reason: 'CrashLoopBackOff' } };
    sidecar.lastState = {
      terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: '2018-12-04T08:00:00Z' },
    };
    const ready = next.status.conditions.find((c) => c.type === 'Ready')!;
    ready.status = 'False';
    ready.lastTransitionTime = '2018-12-04T08:00:01Z';
    const changes = diffStates(state, podState(next));
    expect(changes).toEqual([
      {
        container: null,
        field: 'condition:Ready',
        oldValue: 'True',
        newValue: 'False',
        reportedAt: Date.parse('2018-12-04T08:00:01Z'),
      },
      {
        container: 'sidecar',
        field: 'ready',
        oldValue: 'true',
        newValue: 'false',
        reportedAt: null,
      },
      {
        container: 'sidecar',
        field: 'restartCount',
        oldValue: '0',
        newValue: '1',
        reportedAt: Date.parse('2018-12-04T08:00:00Z'),
      },
      {
        container: 'sidecar',
        field: 'state',
        oldValue: 'running',
        newValue: 'waiting:CrashLoopBackOff',
        reportedAt: null,
      },
    ]);
  });

  it('deletion and vanished container statuses are changes; first sight lists everything', () => {
    const next = clone(fixture) as unknown as {
      metadata: Record<string, unknown>;
      status: { containerStatuses: unknown[] };
    };
    next.metadata.deletionTimestamp = '2018-12-05T00:00:30Z';
    next.status.containerStatuses = next.status.containerStatuses.slice(1);
    const changes = diffStates(state, podState(next));
    const removed = fixture.status.containerStatuses[0]!.name;
    expect(changes.filter((c) => c.newValue === null).map((c) => c.container)).toEqual([
      removed,
      removed,
      removed,
    ]);
    expect(changes.find((c) => c.field === 'deletionTimestamp')).toMatchObject({
      oldValue: null,
      newValue: '2018-12-05T00:00:30Z',
    });
    expect(diffStates(null, state)).toHaveLength(state.size);
  });

  it('ugly objects give an empty or partial state, never a throw', () => {
    expect(podState(null).size).toBe(0);
    expect(podState('pod').size).toBe(0);
    expect(
      podState({ status: { containerStatuses: [null, { ready: true }, { name: 'x', state: {} }] } })
        .size,
    ).toBe(0);
    expect(
      podState({
        status: { containerStatuses: [{ name: 'x', state: { terminated: { exitCode: 1 } } }] },
      }).get('x|state')?.value,
    ).toBe('terminated::1');
  });
});
