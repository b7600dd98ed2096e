import { describe, it, expect } from 'vitest';
import { IncidentsViewSchema } from '../api/incidents';
import type { EndpointSlice } from '../kube/types';
import { IpLedger } from '../ledger/ledger';
import { ev, heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import { buildIncidentsView, readyEndpoints } from './build';
import { logLine } from '../../tests/data/incidents/logs';

const IP = '10.8.0.5';

function ledger(): IpLedger {
  return new IpLedger().addAll([
    ...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 6000),
    ev('ADDED', { name: 'payments-b', ip: '10.8.0.6', start: T0 }, null),
  ]);
}

const slices: EndpointSlice[] = [
  {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: 'payments-x',
      namespace: 'shop',
      labels: { 'kubernetes.io/service-name': 'payments' },
    },
    addressType: 'IPv4',
    endpoints: [
      { addresses: ['10.8.0.6'], conditions: { ready: true } },
      { addresses: ['10.8.0.7'], conditions: { ready: false } },
    ],
  },
];

describe('buildIncidentsView', () => {
  it('assembles a valid view: requests, pods with end of life, chart, services and findings', () => {
    const l = ledger();
    const text = [
      logLine(T0 + 10 * MIN + 2000, 503, 'UC', `${IP}:8080`),
      logLine(T0 + 10 * MIN + 9000, 503, 'UF', `${IP}:8080`),
      logLine(T0 + 10 * MIN + 9500, 200, '-', '10.8.0.6:8080'),
    ].join('\n');
    const view = buildIncidentsView({
      now: T0 + 20 * MIN,
      filter: { fromMs: null, toMs: null, service: null, ip: null },
      logs: [{ source: 'shop/checkout-1', clientPod: 'shop/checkout-1', text }],
      sourcesSkipped: 0,
      history: l,
      intervals: l.intervals(),
      historyInfo: { source: 'test', note: null },
      destinationRules: [],
      virtualServices: [],
      endpointSlices: slices,
      stale: {
        client: 'shop/checkout-1',
        checked: 2,
        problem: null,
        hosts: [
          {
            cluster: 'outbound|8080||payments.shop.svc.cluster.local',
            service: 'payments.shop.svc.cluster.local',
            address: `${IP}:8080`,
            health: 'HEALTHY',
            lastHolder: 'shop/payments-a',
            state: 'terminated',
          },
        ],
      },
    });
    expect(() => IncidentsViewSchema.parse(view)).not.toThrow();
    expect(view.totals).toMatchObject({
      records: 3,
      failing: 2,
      shown: 2,
      byState: { terminating: 1, terminated: 1 },
    });
    expect(view.pods).toHaveLength(1);
    expect(view.pods[0]).toMatchObject({
      pod: { name: 'payments-a' },
      state: 'terminated',
      count: 2,
      deletionStartedAt: new Date(T0 + 10 * MIN).toISOString(),
      goneAt: new Date(T0 + 10 * MIN + 6000).toISOString(),
      clients: ['shop/checkout-1'],
      services: ['payments.shop.svc.cluster.local'],
    });
    expect(view.chart.buckets.reduce((n, b) => n + b.total, 0)).toBe(2);
    expect(view.chart.markers.map((m) => m.kind)).toEqual(['termination', 'gone']);
    expect(view.services[0]).toMatchObject({
      fqdn: 'payments.shop.svc.cluster.local',
      count: 2,
      replicas: 1,
    });
    const codes = view.findings.map((f) => f.code);
    expect(codes).toEqual(
      expect.arrayContaining(['MDX0401', 'MDX0402', 'MDX0403', 'MDX0405', 'MDX0407']),
    );
    expect(view.requests.map((r) => r.client)).toEqual(['shop/checkout-1', 'shop/checkout-1']);
  });

  it('counts ready endpoints per service, null when the service has no slice', () => {
    expect(readyEndpoints('payments.shop.svc.cluster.local', slices)).toBe(1);
    expect(readyEndpoints('inventory.shop.svc.cluster.local', slices)).toBeNull();
    expect(readyEndpoints('example.com', slices)).toBeNull();
  });
});
