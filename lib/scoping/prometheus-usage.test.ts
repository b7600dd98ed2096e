import { describe, expect, it } from 'vitest';
import { requestsQuery, usageFromPrometheus } from './prometheus-usage';

describe('usageFromPrometheus', () => {
  it('groups istio_requests_total samples per client workload and counts bad samples', () => {
    const body = {
      status: 'success',
      data: {
        resultType: 'vector',
        result: [
          {
            metric: {
              source_workload: 'api',
              source_workload_namespace: 'shop',
              destination_service: 'payments.pay.svc.cluster.local',
            },
            value: [1700000000, '120.5'],
          },
          {
            metric: {
              source_workload: 'api',
              source_workload_namespace: 'shop',
              destination_service: 'idle.pay.svc.cluster.local',
            },
            value: [1700000000, '0'],
          },
          {
            metric: { source_workload: 'unknown', destination_service: 'x.y.svc.cluster.local' },
            value: [1700000000, '3'],
          },
          {
            metric: {
              source_workload: 'web',
              source_workload_namespace: 'shop',
              destination_service: 'api.shop.svc.cluster.local',
            },
            value: [1700000000, 'NaN'],
          },
        ],
      },
    };
    const u = usageFromPrometheus(body);
    expect(u.error).toBeNull();
    expect(u.badSamples).toBe(2);
    expect(u.observations).toEqual([
      {
        source: 'prometheus',
        namespace: 'shop',
        workload: 'api',
        available: true,
        hits: [{ host: 'payments.pay.svc.cluster.local', count: 121 }],
      },
    ]);
  });

  it('reports errors and non-results', () => {
    expect(usageFromPrometheus({ status: 'error', error: 'parse error' }).error).toContain(
      'parse error',
    );
    expect(usageFromPrometheus('<html>').error).toContain('not a query result');
  });

  it('queries the client side over the window, never less than a minute', () => {
    expect(requestsQuery(7200)).toContain('[7200s]');
    expect(requestsQuery(5)).toContain('[60s]');
    expect(requestsQuery(7200)).toContain('reporter="source"');
  });

  it('a count no counter can hold is left out, counted and shown with what was read', () => {
    const series = (wl: string, v: string) => ({
      metric: {
        source_workload: wl,
        source_workload_namespace: 'shop',
        destination_service: 'payments.pay.svc.cluster.local',
      },
      value: [1700000000, v],
    });
    const u = usageFromPrometheus({
      status: 'success',
      data: {
        resultType: 'vector',
        result: [series('api', '-5'), series('web', '1e308'), series('cart', '7')],
      },
    });
    expect(u.badSamples).toBe(2);
    expect(u.observations.map((o) => [o.workload, o.hits])).toEqual([
      ['cart', [{ host: 'payments.pay.svc.cluster.local', count: 7 }]],
    ]);
    expect(u.implausible.map((i) => i.raw)).toEqual(['-5', '1e+308']);
    expect(u.implausible[0]?.figure).toContain('source_workload="api"');
  });
});
