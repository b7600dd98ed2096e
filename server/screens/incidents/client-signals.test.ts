import { describe, expect, it } from 'vitest';
import type { KubeTransport } from '../../kube/transport';
import { clientSignals } from './client-signals';

const W = { fromMs: Date.parse('2026-11-01T11:00:00Z'), toMs: Date.parse('2026-11-01T12:00:00Z') };

/** A transport that must not be used: the Prometheus path asks no proxy. */
const noTransport = new Proxy({} as KubeTransport, {
  get() {
    throw new Error('no proxy may be asked when Prometheus answers');
  },
});

function prometheus(body: unknown, seen: URL[]): typeof fetch {
  return (async (input: string | URL | Request) => {
    seen.push(new URL(String(input instanceof Request ? input.url : input)));
    return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
  }) as typeof fetch;
}

describe('client failures from one Prometheus query', () => {
  it('maps the answer onto the candidate pods, zero for the ones it does not name', async () => {
    const seen: URL[] = [];
    const answer = {
      status: 'success',
      data: {
        resultType: 'vector',
        result: [
          {
            metric: { namespace: 'storefront', pod: 'checkout-7d9f-abcde' },
            value: [1793534400, '41.8'],
          },
          { metric: { namespace: 'elsewhere', pod: 'not-a-candidate' }, value: [1793534400, '9'] },
        ],
      },
    };
    const r = await clientSignals(['storefront/checkout-7d9f-abcde', 'shop/ledger-sync-0'], W, {
      t: noTransport,
      prometheus: { baseUrl: 'http://prometheus.monitoring:9090/', timeoutMs: 1000 },
      fetchImpl: prometheus(answer, seen),
    });
    expect(seen[0]?.pathname).toBe('/api/v1/query');
    expect(seen[0]?.searchParams.get('time')).toBe(String(W.toMs / 1000));
    expect(r.signals.get('storefront/checkout-7d9f-abcde')).toEqual({ failures: 42, calls: [] });
    expect(r.signals.get('shop/ledger-sync-0')).toEqual({ failures: 0, calls: [] });
    expect(r.signals.has('elsewhere/not-a-candidate')).toBe(false);
    expect(r.source.source).toMatch(/^Prometheus istio_requests_total/);
  });
});
