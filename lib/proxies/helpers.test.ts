import { describe, expect, it } from 'vitest';
import type { Pod, Sidecar } from '../kube/types';
import { distribution, niceBinWidth } from './distribution';
import { filterClusterRows, filterFleetRows, distinctValues } from './filter';
import { mapBounded } from './pool';
import { isKnownStaticCluster, knownStaticCount, serviceClustersEstimate } from './static-set';
import { parseSyncz, worstState, xdsStatus } from './sync';
import { imageTag, proxyTargets } from './target';

describe('distribution', () => {
  it('bins with 1/2/5 widths and keeps every value', () => {
    expect(niceBinWidth(99, 10)).toBe(10);
    expect(niceBinWidth(2500, 12)).toBe(500);
    expect(niceBinWidth(0, 12)).toBe(1);
    const values = [0, 1, 9, 10, 55, 99, 1017];
    const bins = distribution(values);
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(values.length);
    expect(bins.length).toBeLessThanOrEqual(12);
    expect(bins[0]).toEqual({ from: 0, to: 100, count: 6 });
    expect(distribution([])).toEqual([]);
    expect(distribution([Number.NaN, -1])).toEqual([]);
  });
});

describe('static set', () => {
  it('knows bootstrap and catch-all clusters', () => {
    for (const n of [
      'xds-grpc',
      'BlackHoleCluster',
      'InboundPassthroughClusterIpv4',
      'InboundPassthroughCluster',
    ])
      expect(isKnownStaticCluster(n)).toBe(true);
    expect(isKnownStaticCluster('outbound|80||a.b.svc.cluster.local')).toBe(false);
    expect(knownStaticCount('sidecar') - knownStaticCount('gateway')).toBe(2);
    expect(serviceClustersEstimate(3, 'sidecar')).toBe(0);
    expect(serviceClustersEstimate(null, 'sidecar')).toBeNull();
  });
});

describe('syncz', () => {
  it('follows istioctl proxy-status states', () => {
    expect(xdsStatus('', 'x')).toBe('NOT SENT');
    expect(xdsStatus('a', 'a')).toBe('SYNCED');
    expect(xdsStatus('a', undefined)).toBe('STALE (Never Acknowledged)');
    expect(xdsStatus('a', 'b')).toBe('STALE');
    expect(worstState({ CDS: 'SYNCED', EDS: 'STALE', LDS: 'NOT SENT' })).toBe('STALE');
  });

  it('reads rows, counts bad ones and bad bodies', () => {
    const body = JSON.stringify([
      {
        proxy: 'web-1.a',
        cluster_sent: 'n1',
        cluster_acked: 'n1',
        listener_sent: 'n2',
        listener_acked: 'old',
      },
      { cluster_sent: 'x' },
    ]);
    const r = parseSyncz('istiod-1', body);
    expect(r.byProxy.get('web-1.a')).toEqual({
      istiod: 'istiod-1',
      state: 'STALE',
      types: { CDS: 'SYNCED', LDS: 'STALE', RDS: 'NOT SENT', EDS: 'NOT SENT' },
    });
    expect(r.errors).toEqual(['istiod-1: /debug/syncz[1] has no proxy id']);
    parseSyncz('istiod-2', '<html>', r);
    parseSyncz('istiod-3', '{}', r);
    expect(r.errors.length).toBe(3);
  });

  it('names rows that are not objects or carry non-string versions, and shares equal states', () => {
    const body = JSON.stringify([
      'web-0.a',
      { proxy: 'web-2.a', cluster_sent: 7, cluster_acked: 7 },
      { proxy: 'web-3.a', cluster_sent: 'n', cluster_acked: 'n', endpoint_sent: 'e' },
      { proxy: 'web-4.a', cluster_sent: 'm', cluster_acked: 'm', endpoint_sent: 'f' },
    ]);
    const r = parseSyncz('istiod-1', body);
    expect(r.errors).toEqual([
      'istiod-1: /debug/syncz[0] is not an object',
      'istiod-1: /debug/syncz[1] cluster_sent/cluster_acked is not a string',
    ]);
    expect(r.byProxy.has('web-2.a')).toBe(false);
    const three = r.byProxy.get('web-3.a');
    expect(three).toEqual({
      istiod: 'istiod-1',
      state: 'STALE (Never Acknowledged)',
      types: {
        CDS: 'SYNCED',
        LDS: 'NOT SENT',
        RDS: 'NOT SENT',
        EDS: 'STALE (Never Acknowledged)',
      },
    });
    // same states, one record: 20,000 proxies do not carry 20,000 copies
    expect(r.byProxy.get('web-4.a')?.types).toBe(three?.types);
    expect(r.byProxy.get('web-4.a')).toBe(three);
    expect(Object.isFrozen(three?.types)).toBe(true);
    expect(Object.isFrozen(three)).toBe(true);
    // another replica's proxy with the same states: the same states, its own istiod
    parseSyncz(
      'istiod-2',
      JSON.stringify([
        { proxy: 'web-5.b', cluster_sent: 'n', cluster_acked: 'n', endpoint_sent: 'e' },
      ]),
      r,
    );
    expect(r.byProxy.get('web-5.b')).toEqual({ ...three, istiod: 'istiod-2' });
  });

  it('gives every mix of per-type states as xdsStatus and worstState read them', () => {
    const pairs: [string | undefined, string | undefined][] = [
      [undefined, undefined],
      ['a', 'a'],
      ['a', undefined],
      ['a', 'b'],
    ];
    const rows: Record<string, string>[] = [];
    const want = new Map<string, Record<string, string>>();
    const keys = [
      ['CDS', 'cluster'],
      ['LDS', 'listener'],
      ['RDS', 'route'],
      ['EDS', 'endpoint'],
    ] as const;
    for (let n = 0; n < 256; n++) {
      const row: Record<string, string> = { proxy: `p-${n}.ns` };
      const types: Record<string, string> = {};
      keys.forEach(([label, key], i) => {
        const [sent, acked] = pairs[(n >> (2 * i)) & 3] as [string | undefined, string | undefined];
        if (sent !== undefined) row[`${key}_sent`] = sent;
        if (acked !== undefined) row[`${key}_acked`] = acked;
        types[label] = xdsStatus(sent, acked);
      });
      rows.push(row);
      want.set(`p-${n}.ns`, types);
    }
    const r = parseSyncz('istiod-1', JSON.stringify(rows));
    expect(r.errors).toEqual([]);
    for (const [proxy, types] of want)
      expect(r.byProxy.get(proxy)).toEqual({ istiod: 'istiod-1', state: worstState(types), types });
  });
});

describe('mapBounded', () => {
  it('keeps order, limits concurrency and survives throws', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    const out = await mapBounded(
      [1, 2, 3, 4, 5, 6, 7],
      3,
      async (n) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, (7 - n) * 2));
        inFlight--;
        if (n === 4) throw new Error('boom');
        return n * 10;
      },
      { onThrow: () => -1, onDone: (_r, i) => done.push(i) },
    );
    expect(out).toEqual([10, 20, 30, -1, 50, 60, 70]);
    expect(peak).toBe(3);
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await mapBounded([], 4, async () => 1, { onThrow: () => 0 })).toEqual([]);
  });
});

function pod(
  ns: string,
  name: string,
  extra: Partial<Pod['spec']> = {},
  labels: Record<string, string> = {},
): Pod {
  return {
    metadata: { namespace: ns, name, labels },
    spec: {
      containers: [{ name: 'app' }, { name: 'istio-proxy', args: ['proxy', 'sidecar'] }],
      ...extra,
    },
    status: {
      phase: 'Running',
      podIP: '10.1.1.1',
      containerStatuses: [
        {
          name: 'istio-proxy',
          ready: true,
          restartCount: 0,
          state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
        },
      ],
    },
  } as Pod;
}

describe('proxyTargets', () => {
  it('finds proxies, their Sidecar, and why some cannot be asked', () => {
    const sidecars = [
      {
        metadata: { namespace: 'b', name: 'narrow' },
        spec: { workloadSelector: { labels: { app: 'api' } } },
      },
      { metadata: { namespace: 'istio-system', name: 'mesh' }, spec: {} },
    ] as Sidecar[];
    const pending = pod('a', 'pending');
    pending.status = { phase: 'Pending' };
    const { targets, withoutProxy } = proxyTargets(
      [
        pod('b', 'api-1', {}, { app: 'api' }),
        pod('b', 'other'),
        {
          metadata: { namespace: 'a', name: 'plain' },
          spec: { containers: [{ name: 'app' }] },
        } as Pod,
        pending,
      ],
      sidecars,
    );
    expect(withoutProxy).toBe(1);
    expect(
      targets.map((t) => [t.namespace, t.name, t.sidecar?.name ?? null, t.notRunning]),
    ).toEqual([
      ['a', 'pending', 'mesh', 'pod has no IP yet (phase Pending)'],
      ['b', 'api-1', 'narrow', null],
      ['b', 'other', 'mesh', null],
    ]);
    expect(proxyTargets([pod('b', 'x')], []).targets[0]?.sidecar).toBeNull();
  });

  it('selects no Sidecar for a gateway or a waypoint: istiod applies them to sidecars only', () => {
    const sidecars = [
      { metadata: { namespace: 'edge', name: 'default' }, spec: {} },
      { metadata: { namespace: 'istio-system', name: 'mesh' }, spec: {} },
    ] as Sidecar[];
    const gateway = pod('edge', 'ingress-1', {
      containers: [{ name: 'istio-proxy', args: ['proxy', 'router'] }],
    });
    const waypoint = pod('edge', 'waypoint-1', {
      containers: [{ name: 'istio-proxy', args: ['proxy', 'waypoint'] }],
    });
    const { targets } = proxyTargets([gateway, waypoint, pod('edge', 'app-1')], sidecars);
    expect(targets.map((t) => [t.name, t.placement, t.sidecar?.name ?? null])).toEqual([
      ['app-1', 'sidecar', 'default'],
      ['ingress-1', 'gateway', null],
      ['waypoint-1', 'waypoint', null],
    ]);
  });
});

describe('imageTag', () => {
  it('reads the tag, not the registry port or digest', () => {
    expect(imageTag('docker.io/istio/proxyv2:1.24.0')).toBe('1.24.0');
    expect(imageTag('reg:5000/istio/proxyv2:1.22.1-distroless@sha256:ab')).toBe(
      '1.22.1-distroless',
    );
    expect(imageTag('reg:5000/istio/proxyv2')).toBeNull();
    expect(imageTag(undefined)).toBeNull();
  });
});

describe('filters', () => {
  it('filters fleet rows and cluster rows', () => {
    const rows = [
      { key: 'a/web-1', namespace: 'a', workload: 'web' },
      { key: 'b/api-1', namespace: 'b', workload: 'api' },
    ] as unknown as Parameters<typeof filterFleetRows>[0];
    expect(filterFleetRows(rows, { namespace: 'a' }).map((r) => r.key)).toEqual(['a/web-1']);
    expect(filterFleetRows(rows, { q: 'API' }).map((r) => r.key)).toEqual(['b/api-1']);
    const cl = [
      {
        name: 'outbound|80||a.x.svc.cluster.local',
        fqdn: 'a.x.svc.cluster.local',
        port: 80,
        direction: 'outbound',
        type: 'EDS',
        used: true,
      },
      {
        name: 'xds-grpc',
        fqdn: 'xds-grpc',
        port: '-',
        direction: '-',
        type: 'STATIC',
        used: false,
      },
    ] as unknown as Parameters<typeof filterClusterRows>[0];
    expect(filterClusterRows(cl, { port: '80' }).length).toBe(1);
    expect(filterClusterRows(cl, { usage: 'unused' }).map((r) => r.name)).toEqual(['xds-grpc']);
    expect(filterClusterRows(cl, { fqdn: 'A.X' }).length).toBe(1);
    expect(distinctValues(cl, (r) => r.port)).toEqual(['-', '80']);
    expect(distinctValues([{ p: 10 }, { p: 9 }, { p: 10 }], (r) => r.p)).toEqual(['9', '10']);
  });
});
