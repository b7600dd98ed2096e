import { describe, expect, it } from 'vitest';
import { envoyProxyStats } from '../metrics/envoy-stats';
import { parsePrometheusText } from '../metrics/prometheus';
import { promFleetProblem, promUnusable, type PromFleet } from './prom-fleet';

const URL = 'http://prometheus.istio-system:9090';
const fleet = (over: Partial<PromFleet>): PromFleet => ({
  byPod: new Map(),
  unlabelled: 0,
  error: null,
  queries: [],
  atMs: 1_795_722_856_296,
  ...over,
});
// A sidecar's active-clusters gauge, as Envoy's :15090 scrape writes it.
const stats = envoyProxyStats(
  parsePrometheusText('envoy_cluster_manager_active_clusters{} 87\n').samples,
);

describe('promFleetProblem / promUnusable', () => {
  it('passes a fleet with proxies', () => {
    const f = fleet({
      byPod: new Map([['shop/cart-1', { stats, sampledAtMs: null, sampledAt: null }]]),
    });
    expect(promFleetProblem(f, URL)).toBeNull();
    expect(promUnusable(f, URL)).toBeNull();
  });

  it("names the read's error, or the missing series, and says the proxies are read instead", () => {
    expect(promUnusable(fleet({ error: 'Prometheus query failed: timeout' }), URL)).toBe(
      'Prometheus query failed: timeout: figures read from each proxy instead',
    );
    expect(promFleetProblem(fleet({ unlabelled: 3 }), URL)).toMatch(
      /^Prometheus at http:\/\/prometheus\.istio-system:9090 has no envoy_cluster_manager_active_clusters series with namespace and pod labels/,
    );
  });
});
