import { describe, expect, it } from 'vitest';
import { envoyProxyStats } from '../metrics/envoy-stats';
import { parsePrometheusText } from '../metrics/prometheus';
import { sampleRange } from './sample-range';
import type { ScrapeOutcome } from './types';

// A sidecar's :15090 scrape, as Envoy writes it.
const stats = envoyProxyStats(
  parsePrometheusText(
    '# TYPE envoy_cluster_manager_active_clusters gauge\nenvoy_cluster_manager_active_clusters{} 87\n',
  ).samples,
);
const read = (sampledAt: string | null): ScrapeOutcome => ({
  ok: true,
  stats,
  errors: 0,
  sampledAt,
});

describe('sampleRange', () => {
  it('spans the oldest and newest sample of the proxies read', () => {
    expect(
      sampleRange([
        read('2026-11-28T04:10:05.000Z'),
        null,
        { ok: false, reason: 'connection refused', status: 'unreachable' },
        read('2026-11-28T04:09:50.000Z'),
        read(null),
        read('2026-11-28T04:10:20.000Z'),
      ]),
    ).toEqual({
      oldestSampleAt: '2026-11-28T04:09:50.000Z',
      newestSampleAt: '2026-11-28T04:10:20.000Z',
    });
  });

  it('is empty when no proxy was read', () => {
    expect(sampleRange([null, { ok: false, reason: 'late', status: 'late' }])).toEqual({
      oldestSampleAt: null,
      newestSampleAt: null,
    });
  });
});
