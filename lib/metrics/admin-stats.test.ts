import { describe, it, expect } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { clusterCounterTable, clusterCounters, parseEnvoyStatsText } from './admin-stats';

const FIXTURE = readFixture('stats', 'istio-io_circuit_breaking_stats.txt');

describe('parseEnvoyStatsText', () => {
  it('reads every line of the circuit-breaking fixture', () => {
    const r = parseEnvoyStatsText(FIXTURE);
    const lines = FIXTURE.split('\n').filter((l) => l.trim() !== '');
    expect(r.errors).toEqual([]);
    expect(r.counts.stats).toBe(lines.length);
    const overflow = r.stats.find((s) => s.name.endsWith('.upstream_rq_pending_overflow'));
    const expected = Number(/upstream_rq_pending_overflow: (\d+)/.exec(FIXTURE)?.[1]);
    expect(overflow?.value).toBe(expected);
    expect(overflow?.name).toBe(
      'cluster.outbound|8000||httpbin.default.svc.cluster.local;.upstream_rq_pending_overflow',
    );
  });

  it('pulls per-cluster counters, splitting from the right', () => {
    const r = parseEnvoyStatsText(FIXTURE);
    const total = Number(/upstream_rq_pending_total: (\d+)/.exec(FIXTURE)?.[1]);
    expect(clusterCounters(r.stats, ['upstream_rq_pending_total'])).toEqual([
      {
        cluster: 'outbound|8000||httpbin.default.svc.cluster.local',
        counter: 'upstream_rq_pending_total',
        value: total,
      },
    ]);
  });

  it('skips and counts histograms, keeps text readouts, reports junk', () => {
    const text = [
      'cluster.outbound|9080|v1|reviews.default.svc.cluster.local.upstream_rq_total: 42',
      'cluster.outbound|9080|v1|reviews.default.svc.cluster.local.upstream_cx_total: 7',
      'cluster.outbound|9080|v1|reviews.default.svc.cluster.local.upstream_rq_time: P0(nan,1) P25(nan,2.05) P50(nan,3.05)',
      'cluster.xds-grpc.upstream_rq_total: 3',
      'http.inbound_0.0.0.0_9080.downstream_rq_time: No recorded values',
      'server.version_text: "1.22.1"',
      'this line has no separator',
      'server.uptime: abc',
      '',
    ].join('\n');
    const r = parseEnvoyStatsText(text);
    expect(r.counts).toEqual({
      lines: 8,
      stats: 3,
      histograms: 2,
      textReadouts: 1,
      blank: 0,
      errors: 2,
    });
    expect(r.errors.map((e) => e.line)).toEqual([7, 8]);
    expect(r.textReadouts).toEqual([{ name: 'server.version_text', value: '1.22.1', line: 6 }]);
    expect(clusterCounterTable(r.stats)).toEqual({
      'outbound|9080|v1|reviews.default.svc.cluster.local': {
        upstream_rq_total: 42,
        upstream_cx_total: 7,
      },
      'xds-grpc': { upstream_rq_total: 3 },
    });
  });

  it('counts an impossible counter as an error with its raw value, never as a figure', () => {
    const r = parseEnvoyStatsText(
      [
        'cluster.outbound|80||a.default.svc.cluster.local.upstream_rq_total: -5',
        'cluster.outbound|80||b.default.svc.cluster.local.upstream_rq_total: 1.5',
        'cluster.outbound|80||c.default.svc.cluster.local.upstream_rq_total: 99999999999999999999999',
        'cluster.outbound|80||d.default.svc.cluster.local.upstream_rq_total: 7',
      ].join('\n'),
    );
    expect(r.stats.map((s) => s.value)).toEqual([7]);
    expect(r.counts.errors).toBe(3);
    expect(r.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^implausible cluster\.outbound.*upstream_rq_total -5: /),
      expect.stringMatching(/ 1\.5: a counter is a whole number/),
      expect.stringMatching(/ 1e\+23: a counter is never above/),
    ]);
  });
});
