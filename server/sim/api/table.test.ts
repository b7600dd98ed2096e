import { describe, expect, it } from 'vitest';
import type { Pod, Service } from '../../../lib/kube/types';
import { humanDuration } from './duration';
import { podReadyCell, podRestartsCell, podStatusCell } from './podstatus';
import { includeObjectOf, renderTable, responseForm } from './table';

const NOW = new Date('2026-11-01T12:00:00Z');

function pod(status: Pod['status'], extra: Partial<Pod['spec']> = {}, deleting = false): Pod {
  return {
    metadata: {
      name: 'p',
      namespace: 'ns',
      creationTimestamp: '2026-11-01T11:00:00Z',
      ...(deleting ? { deletionTimestamp: '2026-11-01T11:59:00Z' } : {}),
    },
    spec: { containers: [{ name: 'app' }, { name: 'istio-proxy' }], ...extra },
    status,
  };
}
const running = (name: string, ready = true, restartCount = 0) => ({
  name,
  ready,
  restartCount,
  state: { running: { startedAt: '2026-11-01T11:00:00Z' } },
});

describe('responseForm', () => {
  it('reads what kubectl sends and what plain clients send', () => {
    expect(
      responseForm(
        'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      ),
    ).toBe('table');
    expect(responseForm('application/json')).toBe('json');
    expect(responseForm(undefined)).toBe('json');
    expect(responseForm('application/vnd.kubernetes.protobuf, application/json')).toBe('json');
    expect(responseForm('application/json;as=Table;v=v1beta1;g=meta.k8s.io')).toBe('unsupported');
    expect(includeObjectOf(null)).toBe('Metadata');
    expect(includeObjectOf('Bogus')).toBeNull();
  });
});

describe('pod cells as kubectl derives them', () => {
  it('Running 2/2, and restarts with when', () => {
    const p = pod({
      phase: 'Running',
      containerStatuses: [
        {
          ...running('app', true, 3),
          lastState: { terminated: { exitCode: 1, finishedAt: '2026-11-01T11:55:00Z' } },
        },
        running('istio-proxy'),
      ],
    });
    expect([podReadyCell(p), podStatusCell(p), podRestartsCell(p, NOW)]).toEqual([
      '2/2',
      'Running',
      '3 (5m ago)',
    ]);
  });
  it('CrashLoopBackOff, Terminating, Init:0/1, init errors, native sidecars', () => {
    const crash = pod({
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
        },
        running('istio-proxy'),
      ],
    });
    expect([podReadyCell(crash), podStatusCell(crash)]).toEqual(['1/2', 'CrashLoopBackOff']);
    const term = pod(
      { phase: 'Running', containerStatuses: [running('app'), running('istio-proxy')] },
      {},
      true,
    );
    expect(podStatusCell(term)).toBe('Terminating');
    const init = pod(
      {
        phase: 'Pending',
        initContainerStatuses: [
          {
            name: 'istio-init',
            ready: false,
            restartCount: 0,
            state: { waiting: { reason: 'PodInitializing' } },
          },
        ],
      },
      { initContainers: [{ name: 'istio-init' }] },
    );
    expect(podStatusCell(init)).toBe('Init:0/1');
    const failed = pod(
      {
        phase: 'Pending',
        initContainerStatuses: [
          {
            name: 'istio-init',
            ready: false,
            restartCount: 1,
            state: { terminated: { exitCode: 2 } },
          },
        ],
      },
      { initContainers: [{ name: 'istio-init' }] },
    );
    expect(podStatusCell(failed)).toBe('Init:ExitCode:2');
    const native = pod(
      {
        phase: 'Running',
        initContainerStatuses: [{ ...running('istio-proxy'), started: true }],
        containerStatuses: [running('app')],
      },
      {
        containers: [{ name: 'app' }],
        initContainers: [{ name: 'istio-proxy', restartPolicy: 'Always' }],
      },
    );
    expect([podReadyCell(native), podStatusCell(native)]).toEqual(['2/2', 'Running']);
  });
  it('humanDuration follows kubectl', () => {
    expect(
      [45e3, 150e3, 600e3, 3 * 3600e3 + 60e3, 30 * 3600e3, 3 * 86400e3 + 3600e3, 400 * 86400e3].map(
        humanDuration,
      ),
    ).toEqual(['45s', '2m30s', '10m', '3h1m', '30h', '3d1h', '400d']);
  });
});

describe('renderTable', () => {
  const svc: Service = {
    metadata: { name: 'web', namespace: 'ns', creationTimestamp: '2026-10-30T12:00:00Z' },
    spec: {
      type: 'ClusterIP',
      clusterIP: '10.96.0.10',
      selector: { app: 'web' },
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
      ],
    },
  };
  const opts = { now: NOW, resourceVersion: '7', apiVersion: 'v1', kind: 'Service' };
  it('prints service columns and honours includeObject', () => {
    const t = JSON.parse(renderTable('services', [svc], { ...opts, includeObject: 'Object' })) as {
      kind: string;
      columnDefinitions: { name: string }[];
      rows: { cells: string[]; object: { kind: string } }[];
    };
    expect(t.kind).toBe('Table');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual([
      'Name',
      'Type',
      'Cluster-IP',
      'External-IP',
      'Port(s)',
      'Age',
      'Selector',
    ]);
    expect(t.rows[0]?.cells).toEqual([
      'web',
      'ClusterIP',
      '10.96.0.10',
      '<none>',
      '80/TCP,53/UDP',
      '2d',
      'app=web',
    ]);
    expect(t.rows[0]?.object.kind).toBe('Service');
    const meta = JSON.parse(
      renderTable('services', [svc], { ...opts, includeObject: 'Metadata' }),
    ) as { rows: { object: { kind: string; metadata: { name: string } } }[] };
    expect(meta.rows[0]?.object).toMatchObject({
      kind: 'PartialObjectMetadata',
      metadata: { name: 'web' },
    });
    const none = JSON.parse(renderTable('services', [svc], { ...opts, includeObject: 'None' })) as {
      rows: object[];
    };
    expect(none.rows[0]).not.toHaveProperty('object');
  });
  it('falls back to NAME/AGE for other resources', () => {
    const t = JSON.parse(
      renderTable(
        'sidecars',
        [{ metadata: { name: 'default', creationTimestamp: '2026-11-01T11:59:15Z' } }],
        { ...opts, includeObject: 'None' },
      ),
    ) as { rows: { cells: string[] }[] };
    expect(t.rows[0]?.cells).toEqual(['default', '45s']);
  });
});
