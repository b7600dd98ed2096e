import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pushFromMetrics } from './push-health';

/** istiod 1.7.1's own /metrics (tests/data/istiod-metrics/PROVENANCE.md). */
const REAL = fs.readFileSync(
  path.join(import.meta.dirname, '../../tests/data/istiod-metrics/istiod-1.7.1.prom'),
  'utf8',
);

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

  it('reads a real istiod 1.7.1 and believes every figure of it', () => {
    const p = pushFromMetrics('istiod-7b69ff6f8c-lx8qk', REAL);
    expect(p.connectedProxies).toBe(8);
    expect(p.services).toBe(11);
    expect(p.pushes).toEqual({ cds: 9, eds: 49, lds: 9, rds: 9 });
    expect(p.convergence?.count).toBe(1);
    expect(p.convergence?.mean).toBeCloseTo(0.002034992, 9);
    expect(p.implausible).toEqual([]);
  });

  it('a figure that cannot be is unknown with what was read, never taken as a fact', () => {
    const bad = REAL.replace('pilot_xds{version="1.7.1"} 8', 'pilot_xds{version="1.7.1"} -8')
      .replace('pilot_services 11', 'pilot_services 1.5')
      .replace('pilot_xds_pushes{type="eds"} 49', 'pilot_xds_pushes{type="eds"} 1e308')
      .replace('pilot_xds_pushes{type="cds"} 9', 'pilot_xds_pushes{type="cds"} NaN');
    const p = pushFromMetrics('istiod-1', bad);
    expect(p.connectedProxies).toBeNull();
    expect(p.services).toBeNull();
    // the believable pushes stay; the others are left out, not summed in
    expect(p.pushes).toEqual({ lds: 9, rds: 9 });
    expect(p.implausible.map((i) => [i.figure, i.raw])).toEqual([
      ['pilot_xds_pushes{type="cds"}', 'NaN'],
      ['pilot_xds_pushes{type="eds"}', '1e+308'],
      ['pilot_xds', '-8'],
      ['pilot_services', '1.5'],
    ]);
    expect(p.implausible[2]?.reason).toContain('never below 0');
  });

  it('a convergence histogram whose cumulative counts fall gives no quantiles', () => {
    const bad = REAL.replace(
      'pilot_proxy_convergence_time_bucket{le="5"} 1',
      'pilot_proxy_convergence_time_bucket{le="5"} 0',
    );
    const p = pushFromMetrics('istiod-1', bad);
    expect(p.convergence).toBeNull();
    expect(p.implausible).toHaveLength(1);
    expect(p.implausible[0]?.figure).toBe('pilot_proxy_convergence_time_bucket{le="5"}');
    expect(p.implausible[0]?.reason).toContain('never falls');
  });

  it('a negative convergence sum is not a mean', () => {
    const p = pushFromMetrics(
      'istiod-1',
      REAL.replace(
        'pilot_proxy_convergence_time_sum 0.002034992',
        'pilot_proxy_convergence_time_sum -4',
      ),
    );
    expect(p.convergence?.mean).toBeNull();
    expect(p.convergence?.count).toBe(1);
    expect(p.implausible.map((i) => i.figure)).toEqual(['pilot_proxy_convergence_time_sum']);
  });
});
