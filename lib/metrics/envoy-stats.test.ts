import { describe, it, expect } from 'vitest';
import { parsePrometheusText } from './prometheus';
import { checkEnvoyProxyStats, envoyProxyStats } from './envoy-stats';

// Shaped like Envoy's :15090/stats/prometheus as merged by pilot-agent on :15020.
const SCRAPE = `# TYPE envoy_cluster_manager_active_clusters gauge
envoy_cluster_manager_active_clusters{} 87
# TYPE envoy_cluster_manager_warming_clusters gauge
envoy_cluster_manager_warming_clusters{} 2
# TYPE envoy_listener_manager_total_listeners_active gauge
envoy_listener_manager_total_listeners_active{} 53
# TYPE envoy_server_memory_allocated gauge
envoy_server_memory_allocated{} 11534336
# TYPE envoy_server_state gauge
envoy_server_state{} 0
# TYPE envoy_server_initialization_time_ms histogram
envoy_server_initialization_time_ms_bucket{le="0.5"} 0
envoy_server_initialization_time_ms_bucket{le="1"} 0
envoy_server_initialization_time_ms_bucket{le="500"} 0
envoy_server_initialization_time_ms_bucket{le="1000"} 1
envoy_server_initialization_time_ms_bucket{le="2500"} 1
envoy_server_initialization_time_ms_bucket{le="+Inf"} 1
envoy_server_initialization_time_ms_sum{} 745
envoy_server_initialization_time_ms_count{} 1
# TYPE istio_build gauge
istio_build{component="pilot-agent",tag="1.22.1"} 1
istio_build{component="proxy",tag="1.22.1-distroless"} 1
`;

describe('envoyProxyStats', () => {
  it('extracts the per-proxy figures', () => {
    const parsed = parsePrometheusText(SCRAPE);
    expect(parsed.errors).toEqual([]);
    const s = envoyProxyStats(parsed.samples);
    expect(s).toMatchObject({
      activeClusters: 87,
      warmingClusters: 2,
      listenersActive: 53,
      memoryAllocatedBytes: 11534336,
      serverState: { value: 0, name: 'LIVE' },
      istioVersion: '1.22.1-distroless',
    });
    expect(s.initializationTimeMs?.sum).toBe(745);
    expect(s.initializationTimeMs?.count).toBe(1);
    expect(s.initializationTimeMs?.mean).toBe(745);
    // the single observation is in (500, 1000]: p50 = 500 + 500 * 0.5
    expect(s.initializationTimeMs?.p50).toBe(750);
  });

  it('returns nulls for what the scrape lacks', () => {
    const s = envoyProxyStats(
      parsePrometheusText('envoy_server_state 3\nistio_build{component="pilot",tag="1.9.0"} 1\n')
        .samples,
    );
    expect(s).toEqual({
      activeClusters: null,
      warmingClusters: null,
      listenersActive: null,
      memoryAllocatedBytes: null,
      serverState: { value: 3, name: 'INITIALIZING' },
      initializationTimeMs: null,
      istioVersion: '1.9.0',
      implausible: [],
    });
  });

  it('takes no impossible gauge as a fact: it is null, listed with its raw value', () => {
    const bad = (clusters: string, listeners: string, memory: string) =>
      envoyProxyStats(
        parsePrometheusText(
          SCRAPE.replace('active_clusters{} 87', `active_clusters{} ${clusters}`)
            .replace('listeners_active{} 53', `listeners_active{} ${listeners}`)
            .replace('memory_allocated{} 11534336', `memory_allocated{} ${memory}`),
        ).samples,
      );
    const a = bad('-5', '53', '1e308');
    expect(a.activeClusters).toBeNull();
    expect(a.memoryAllocatedBytes).toBeNull();
    expect(a.listenersActive).toBe(53);
    expect(a.implausible.map((i) => [i.figure, i.raw])).toEqual([
      ['envoy_cluster_manager_active_clusters', '-5'],
      ['envoy_server_memory_allocated', '1e+308'],
    ]);
    const b = bad('99999999999999999999999', '1.5', 'NaN');
    expect([b.activeClusters, b.listenersActive, b.memoryAllocatedBytes]).toEqual([
      null,
      null,
      null,
    ]);
    expect(b.implausible.map((i) => i.raw)).toEqual(['1e+23', '1.5', 'NaN']);
    // checking again changes nothing (the Prometheus path checks what it folded)
    expect(checkEnvoyProxyStats(b)).toEqual(b);
  });
});
