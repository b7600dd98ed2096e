import { describe, expect, it } from 'vitest';
import { nonceSentAt, parseSynczNonces, rankStaleness } from './staleness';

/*
 * Rows in the shape istiod's /debug/syncz writes (istio/istio pilot/pkg/xds/debug.go SyncStatus:
 * cluster_id, proxy, proxy_type, istio_version, <type>_sent / <type>_acked, empty ones omitted),
 * nonces as pilot/pkg/xds writes them: NextVersion() (`time.Now().Format(time.RFC3339) + "/" +
 * counter`) followed by a UUID.
 */
const NOW = Date.parse('2026-11-01T12:00:00Z');
const v = (agoS: number, n: number) =>
  `${new Date(NOW - agoS * 1000).toISOString().replace('.000Z', 'Z')}/${n}`;
const U1 = '3f2b8c1e-9a4d-4f6e-b1c2-7d8e9f0a1b2c';
const U2 = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';

function row(proxy: string, eds: { sent?: string; acked?: string }, ago = 5) {
  const synced = v(ago, 10) + U1;
  return {
    cluster_id: 'Kubernetes',
    proxy,
    proxy_type: 'sidecar',
    istio_version: '1.30.1',
    cluster_sent: synced,
    cluster_acked: synced,
    listener_sent: synced,
    listener_acked: synced,
    route_sent: synced,
    route_acked: synced,
    ...(eds.sent !== undefined ? { endpoint_sent: eds.sent } : {}),
    ...(eds.acked !== undefined ? { endpoint_acked: eds.acked } : {}),
  };
}

describe('nonceSentAt', () => {
  it('reads the push second from a push-versioned nonce, and nothing from a bare UUID', () => {
    expect(nonceSentAt(`2026-11-01T11:59:20Z/42${U1}`)).toBe(NOW - 40_000);
    expect(nonceSentAt(`2026-11-01T12:59:20+01:00/7${U1}`)).toBe(NOW - 40_000);
    expect(nonceSentAt(U1)).toBeNull();
    expect(nonceSentAt('')).toBeNull();
  });
});

describe('rankStaleness', () => {
  const body = JSON.stringify([
    row('a-1.shop', { sent: v(3, 20) + U2, acked: v(3, 20) + U2 }),
    row('b-1.shop', { sent: v(90, 21) + U2, acked: v(120, 19) + U1 }),
    row('c-1.pay', { sent: v(10, 22) + U2, acked: v(40, 18) + U1 }),
    row('d-1.pay', { sent: v(2, 23) + U2 }),
    row('e-1.pay', { sent: U2, acked: U1 }),
    row('f-1.ops', {}),
    { proxy: 'no-namespace' },
    { istio_version: '1.30.1' },
  ]);

  it('reads every row it can, naming the ones it cannot', () => {
    const { rows, errors } = parseSynczNonces('istiod-0', body);
    expect(rows.map((r) => r.proxy)).toEqual([
      'shop/a-1',
      'shop/b-1',
      'pay/c-1',
      'pay/d-1',
      'pay/e-1',
      'ops/f-1',
    ]);
    expect(errors).toEqual([
      'istiod-0: /debug/syncz[6] proxy "no-namespace" is not POD.NAMESPACE',
      'istiod-0: /debug/syncz[7] has no proxy id',
    ]);
    expect(parseSynczNonces('istiod-0', '<html>').errors).toEqual([
      'istiod-0: /debug/syncz did not return JSON',
    ]);
  });

  it('states each type as istioctl does and ranks the stale proxies by the age of their sent nonce', () => {
    const { rows } = parseSynczNonces('istiod-0', body);
    const r = rankStaleness(rows, NOW, 30_000);
    expect(r.proxies).toBe(6);
    expect(r.stale).toBe(4);
    expect(r.top.map((p) => [p.proxy, p.oldestMs, p.overThreshold])).toEqual([
      ['shop/b-1', 90_000, true],
      ['pay/c-1', 10_000, false],
      // never acknowledged: over the threshold whatever its age
      ['pay/d-1', 2_000, true],
      // an unacknowledged nonce without a push time: stale, its age unknown, not 0
      ['pay/e-1', null, false],
    ]);
    expect(r.top[0]?.types.EDS).toEqual({ state: 'STALE', ageMs: 90_000 });
    expect(r.top[0]?.types.CDS).toEqual({ state: 'SYNCED', ageMs: null });
    expect(r.top[2]?.types.EDS.state).toBe('STALE (Never Acknowledged)');
    expect(r.overThreshold).toBe(2);
    expect(r.ageUnknown).toBe(1);
    const f = rows.find((x) => x.proxy === 'ops/f-1');
    expect(f && rankStaleness([f], NOW, 30_000).top).toEqual([]);
  });

  it('keeps only the longest waits when asked for a few', () => {
    const { rows } = parseSynczNonces('istiod-0', body);
    expect(rankStaleness(rows, NOW, 30_000, 2).top.map((p) => p.proxy)).toEqual([
      'shop/b-1',
      'pay/c-1',
    ]);
  });
});
