import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import {
  NOT_EXPORTED,
  USAGE_STATS_PATH,
  usageFromStatsText,
  usageObservation,
} from './envoy-usage';

const SIM_LIKE = [
  'cluster.BlackHoleCluster.upstream_cx_total: 0',
  'cluster.BlackHoleCluster.upstream_rq_total: 0',
  'cluster.PassthroughCluster.upstream_cx_total: 3',
  'cluster.PassthroughCluster.upstream_rq_total: 0',
  'cluster.inbound|8080||.upstream_cx_total: 40',
  'cluster.inbound|8080||.upstream_rq_total: 800',
  'cluster.outbound|80||notify.analytics-2.svc.cluster.local.upstream_cx_total: 203',
  'cluster.outbound|80||notify.analytics-2.svc.cluster.local.upstream_rq_total: 4041',
  'cluster.outbound|80|v1|notify.analytics-2.svc.cluster.local.upstream_rq_total: 0',
  'cluster.outbound|9000||store.geo-1.svc.cluster.local;.upstream_cx_total: 7',
  'cluster.outbound|9000||store.geo-1.svc.cluster.local;.upstream_rq_total: 0',
  'cluster.xds-grpc.upstream_cx_total: 1',
  'cluster.xds-grpc.upstream_rq_total: 1',
  'cluster.xds-grpc.upstream_rq_time: P0(nan,1) P25(nan,1)',
  'garbage line without separator',
  '',
].join('\n');

describe('usageFromStatsText', () => {
  it('counts service and inbound clusters, zeros included, and keeps only used ones as hits', () => {
    const u = usageFromStatsText(SIM_LIKE);
    expect(u.clusters).toBe(7);
    expect(u.serviceClusters).toBe(4);
    expect(u.inboundClusters).toBe(1);
    expect(u.errors).toBe(1);
    expect(u.hits).toEqual([
      { cluster: 'PassthroughCluster', count: 3 },
      { cluster: 'inbound|8080||', count: 800, port: 8080 },
      { cluster: 'outbound|80||notify.analytics-2.svc.cluster.local', count: 4041, port: 80 },
      // TCP: no requests, connections count; the `;` Envoy appends is removed
      { cluster: 'outbound|9000||store.geo-1.svc.cluster.local', count: 7, port: 9000 },
      { cluster: 'xds-grpc', count: 1 },
    ]);
  });

  it('a proxy that does not export per-cluster stats is unavailable, not "called nothing"', () => {
    // real /stats excerpt from istio.io: circuit-breaker stats, no upstream_rq_total lines
    const text = readFixture('stats', 'istio-io_circuit_breaking_stats.txt');
    const u = usageFromStatsText(text);
    expect(u.serviceClusters).toBe(0);
    const r = usageObservation('default', 'fortio-1', u);
    expect(r.usage).toBeNull();
    expect(r.observation).toMatchObject({ available: false, error: NOT_EXPORTED, hits: [] });
    const ok = usageObservation('default', 'fortio-1', usageFromStatsText(SIM_LIKE));
    expect(ok.observation.available).toBe(true);
    expect(ok.observation.hits).toHaveLength(5);
  });

  it('asks for every cluster (no usedonly) with dots percent-encoded', () => {
    expect(USAGE_STATS_PATH).not.toContain('..');
    expect(USAGE_STATS_PATH).not.toContain('usedonly');
    const filter = new URLSearchParams(USAGE_STATS_PATH.split('?')[1]).get('filter') ?? '';
    const re = new RegExp(filter);
    expect(re.test('cluster.outbound|80||a.b.svc.cluster.local.upstream_rq_total')).toBe(true);
    expect(re.test('cluster.xds-grpc.upstream_cx_total')).toBe(true);
    expect(re.test('cluster.x.upstream_rq_time')).toBe(false);
  });
});
