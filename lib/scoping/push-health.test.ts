import { describe, expect, it } from 'vitest';
import { pushFromMetrics } from './push-health';

const METRICS = `# HELP pilot_xds Number of endpoints connected to this pilot using XDS.
# TYPE pilot_xds gauge
pilot_xds{version="1.24.2"} 150
pilot_xds{version="1.23.1"} 4
# TYPE pilot_services gauge
pilot_services 122
# TYPE pilot_xds_pushes counter
pilot_xds_pushes{type="cds"} 300
pilot_xds_pushes{type="eds"} 900
pilot_xds_pushes{type="cds_senderr"} 2
# TYPE pilot_proxy_convergence_time histogram
pilot_proxy_convergence_time_bucket{le="0.1"} 10
pilot_proxy_convergence_time_bucket{le="1"} 90
pilot_proxy_convergence_time_bucket{le="+Inf"} 100
pilot_proxy_convergence_time_sum 45
pilot_proxy_convergence_time_count 100
# TYPE pilot_xds_config_size_bytes histogram
pilot_xds_config_size_bytes_bucket{type="cds",le="+Inf"} 3
pilot_xds_config_size_bytes_sum{type="cds"} 3000
pilot_xds_config_size_bytes_count{type="cds"} 3
pilot_xds_config_size_bytes_sum{type="eds"} 1000
pilot_xds_config_size_bytes_count{type="eds"} 1
# TYPE go_goroutines gauge
go_goroutines 431
not a metric line {{
`;

describe('pushFromMetrics', () => {
  it('reads connected proxies, pushes by type, convergence and config size', () => {
    const p = pushFromMetrics('istiod-1', METRICS);
    expect(p.connectedProxies).toBe(154);
    expect(p.services).toBe(122);
    expect(p.pushes).toEqual({ cds: 300, eds: 900, cds_senderr: 2 });
    expect(p.convergence?.count).toBe(100);
    expect(p.convergence?.mean).toBeCloseTo(0.45);
    // p50 falls in (0.1, 1]: 0.1 + (50-10)/(90-10) * 0.9
    expect(p.convergence?.p50).toBeCloseTo(0.55);
    // p99 in the +Inf bucket: the highest finite bound
    expect(p.convergence?.p99).toBe(1);
    expect(p.configSizeMeanBytes).toBe(1000);
    expect(p.reachable).toBe(true);
  });

  it('an istiod without those metrics gives nulls, not zeros', () => {
    const p = pushFromMetrics('istiod-2', 'go_goroutines 3\n');
    expect(p).toMatchObject({
      connectedProxies: null,
      services: null,
      pushes: {},
      convergence: null,
      configSizeMeanBytes: null,
    });
  });
});
