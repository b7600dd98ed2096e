import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { parsePrometheusText } from '../metrics/prometheus';
import { failuresQuery, istioRequestLines } from './signal-query';

describe('the client failure signals', () => {
  it('asks for failing source-side requests per pod over the window', () => {
    expect(failuresQuery(3600)).toBe(
      'sum by (namespace, pod) (increase(istio_requests_total{reporter="source",response_code=~"5.."}[3600s])) or sum by (namespace, pod) (increase(istio_requests_total{reporter="source",response_flags!="-"}[3600s]))',
    );
    // never a window shorter than a minute
    expect(failuresQuery(5)).toContain('[60s]');
  });

  it('keeps only istio_requests_total out of a real Envoy stats page', () => {
    const envoy = readFixture('stats', 'istio-io_circuit_breaking_stats.txt');
    expect(istioRequestLines(envoy)).toBe('');
    const istio = [
      '# TYPE istio_requests_total counter',
      'istio_requests_total{reporter="source",destination_workload="httpbin",response_code="503",response_flags="UO"} 7',
      'istio_requests_total{reporter="source",destination_workload="httpbin",response_code="200",response_flags="-"} 120',
    ];
    const kept = istioRequestLines([envoy, ...istio, 'istio_request_bytes_sum 10'].join('\n'));
    expect(kept.split('\n')).toEqual(istio);
    expect(parsePrometheusText(kept).samples.map((x) => x.value)).toEqual([7, 120]);
  });
});
