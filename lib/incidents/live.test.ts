import { describe, expect, it } from 'vitest';
import type { IncidentsView, RequestRow } from '../api/incidents';
import type { IpHistory } from '../ledger/ip-history';
import {
  countOutcome,
  createLiveAttributor,
  emptyStats,
  mergeLive,
  newLiveBuffer,
  pushLive,
} from './live';

const LINE = (t: string, code: number, flags: string, ip: string) =>
  `[${t}] "POST /api/v1/charge HTTP/1.1" ${code} ${flags} via_upstream - "-" 120 0 3 - "-" "checkout/1.4" "6b1e7c2e-0f3b-4c1e-9d55-2f1c0a3f9e11" "payments.shop.svc.cluster.local:8080" "${ip}:8080" outbound|8080||payments.shop.svc.cluster.local 10.244.1.7:41234 10.96.12.4:8080 10.244.1.7:52110 - default`;

const noHistory: IpHistory = {
  at: () => ({ kind: 'unknown' }) as unknown as ReturnType<IpHistory['at']>,
  history: () => [],
  intervals: () => [],
};

const row = (i: number, state: RequestRow['state'] = 'terminated'): RequestRow => ({
  source: 'storefront/checkout-1',
  line: i,
  time: new Date(Date.parse('2026-11-01T12:00:20Z') + i * 1000).toISOString(),
  code: 503,
  flags: ['UC'],
  upstream: '10.244.2.9:8080',
  upstreamIp: '10.244.2.9',
  pod: null,
  owner: null,
  state,
  afterTerminationMs: null,
  reason: '',
  client: 'storefront/checkout-1',
  service: 'payments.shop.svc.cluster.local',
});

describe('live attribution of followed lines', () => {
  it('keeps failing outbound lines, counts the rest', () => {
    let asked = 0;
    const attribute = createLiveAttributor(
      'storefront/checkout-1',
      { fromMs: null, toMs: null, service: null, ip: null },
      () => {
        asked++;
        return noHistory;
      },
    );
    const stats = emptyStats();
    const outs = [
      LINE('2026-11-01T12:00:21.003Z', 200, '-', '10.244.2.9'),
      LINE('2026-11-01T12:00:21.003Z', 503, 'UC', '10.244.2.9'),
      '2026-11-01T12:00:21.500000Z\twarning\tenvoy config\tgRPC config rejected',
    ].map((l) => {
      const o = attribute(l);
      countOutcome(stats, o);
      return o;
    });
    expect(outs.map((o) => o.kind)).toEqual(['ok', 'request', 'skipped']);
    expect(asked).toBe(0); // attribution waits until asked
    const o = outs[1];
    const r = o?.kind === 'request' ? o.attribute() : null;
    expect(asked).toBe(1);
    expect(r?.code).toBe(503);
    expect(r?.upstreamIp).toBe('10.244.2.9');
    expect(r?.client).toBe('storefront/checkout-1');
    expect(stats).toEqual({ lines: 3, records: 2, failing: 1, skipped: 1, errors: 0 });
  });
});

describe('the browser buffer of a live session', () => {
  it('keeps the newest rows up to its cap with exact counts of all', () => {
    let b = newLiveBuffer(3);
    b = pushLive(b, [row(1), row(2, 'terminating')]);
    b = pushLive(b, [row(3), row(4), row(5)]);
    expect(b.rows.map((r) => r.line)).toEqual([3, 4, 5]);
    expect(b.received).toBe(5);
    expect(b.dropped).toBe(2);
    expect(b.byState).toEqual({ terminated: 4, terminating: 1 });
    expect(b.latestMs).toBe(Date.parse('2026-11-01T12:00:25Z'));
    expect(b.keys.size).toBe(3);
  });
  it('skips the lines a resumed follow sends again', () => {
    const b = pushLive(newLiveBuffer(), [row(1), row(2)]);
    const again = pushLive(b, [row(2)]);
    expect(again).toBe(b);
    expect(pushLive(b, [row(2), row(3)]).received).toBe(3);
  });
});

describe('the live view', () => {
  it('adds arrived rows to the snapshot, re-bins over the longer window, keeps every figure on the same rows', () => {
    const view = {
      totals: {
        records: 10,
        failing: 1,
        shown: 1,
        byState: { terminated: 1 },
        outsideWindow: 0,
        inbound: 0,
      },
      chart: {
        from: '2026-11-01T12:00:00.000Z',
        to: '2026-11-01T12:01:00.000Z',
        bucketMs: 1000,
        buckets: [{ start: '2026-11-01T12:00:20.000Z', total: 1, byFlag: { UC: 1 } }],
        flags: ['UC'],
        markers: [
          {
            kind: 'termination' as const,
            at: '2026-11-01T12:00:20.000Z',
            pod: 'shop/p-1',
            workload: 'p',
          },
        ],
        rollouts: [],
      },
      pods: [],
      requests: [row(0)],
    } as unknown as IncidentsView;
    let buf = newLiveBuffer(2);
    buf = pushLive(buf, [row(50), row(70, 'terminating'), row(100)]);
    const v = mergeLive(view, buf, {
      stats: { lines: 30, records: 28, failing: 3, skipped: 2, errors: 0 },
      markers: [
        { kind: 'termination', at: '2026-11-01T12:00:20.000Z', pod: 'shop/p-1', workload: 'p' },
        { kind: 'termination', at: '2026-11-01T12:01:05.000Z', pod: 'shop/p-2', workload: 'p' },
      ],
    });
    expect(v.chart.to).toBe('2026-11-01T12:02:00.000Z');
    expect(v.chart.bucketMs).toBe(1000);
    // the snapshot's failing request and all 3 live ones, the one dropped from the table too
    expect(v.chart.buckets.reduce((n, b) => n + b.total, 0)).toBe(4);
    expect(v.pods.reduce((n, p) => n + p.count, 0)).toBe(3);
    expect(v.totals.shown).toBe(4);
    expect(v.totals.byState).toEqual({ terminated: 3, terminating: 1 });
    expect(v.totals.records).toBe(38);
    expect(v.chart.markers.map((m) => m.pod)).toEqual(['shop/p-1', 'shop/p-2']);
    expect(v.requests.map((r) => r.line)).toEqual([0, 70, 100]);
  });
});

describe('a long live session', () => {
  it('keeps chart, cards and pods table on every row after the table dropped the oldest', () => {
    const view = {
      totals: { records: 0, failing: 0, shown: 0, byState: {}, outsideWindow: 0, inbound: 0 },
      chart: {
        from: '2026-11-01T12:00:00.000Z',
        to: '2026-11-01T12:00:20.000Z',
        bucketMs: 1000,
        buckets: [],
        flags: [],
        markers: [],
        rollouts: [],
      },
      pods: [],
      requests: [],
    } as unknown as IncidentsView;
    let buf = newLiveBuffer(100);
    // an hour of failures, one a second: far more than the table keeps or the bins hold at 1 s
    for (let i = 0; i < 3600; i += 100)
      buf = pushLive(
        buf,
        Array.from({ length: 100 }, (_, j) => row(i + j)),
      );
    expect(buf.rows).toHaveLength(100);
    expect(buf.dropped).toBe(3500);
    expect(buf.bins.bins.size).toBeLessThanOrEqual(buf.bins.maxBins);
    expect(buf.bins.stepMs).toBeGreaterThan(1000);
    const v = mergeLive(view, buf, { stats: emptyStats(), markers: [] });
    const charted = v.chart.buckets.reduce((n, b) => n + b.total, 0);
    expect(charted).toBe(3600);
    expect(v.totals.shown).toBe(3600);
    expect(v.pods.reduce((n, p) => n + p.count, 0)).toBe(3600);
    // a view answered from the store: its recorded count grows with the session
    const stored = mergeLive(
      {
        ...view,
        memory: { failing: 5, text: '5 failing requests in the store.' },
      } as unknown as IncidentsView,
      buf,
      { stats: emptyStats(), markers: [] },
    );
    expect(stored.memory?.failing).toBe(3605);
    expect(stored.memory?.text).toContain('3,600 more recorded');
    // the newest rows are in the table and in the chart's last bins
    const last = v.chart.buckets.at(-1);
    expect(last?.total).toBeGreaterThan(0);
    expect(Date.parse(v.chart.to)).toBe(Date.parse(row(3599).time ?? ''));
  });
});
