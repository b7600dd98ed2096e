import { describe, expect, it } from 'vitest';
import { parsePrometheusText } from '../metrics/prometheus';
import { parseEnvoyStatsText } from '../metrics/admin-stats';
import {
  failuresFromIstioSamples,
  rankClients,
  signalFromAdminStats,
  signalFromIstioSamples,
  type ClientSignal,
} from './clients';

// As a real sidecar's :15090 writes it (istio stats plugin, reporter source and destination).
const SCRAPE = `# TYPE istio_requests_total counter
istio_requests_total{reporter="source",source_workload="checkout",destination_service="payments.shop.svc.cluster.local",response_code="200",response_flags="-"} 1840
istio_requests_total{reporter="source",source_workload="checkout",destination_service="payments.shop.svc.cluster.local",response_code="503",response_flags="UC"} 7
istio_requests_total{reporter="source",source_workload="checkout",destination_service="payments.shop.svc.cluster.local",response_code="0",response_flags="UF"} 2
istio_requests_total{reporter="destination",source_workload="web",destination_service="checkout.storefront.svc.cluster.local",response_code="500",response_flags="-"} 4
# TYPE envoy_cluster_manager_active_clusters gauge
envoy_cluster_manager_active_clusters{} 41
`;

const ADMIN = `cluster.outbound|8080||payments.shop.svc.cluster.local.upstream_rq_total: 1200
cluster.outbound|8080||payments.shop.svc.cluster.local.upstream_rq_5xx: 9
cluster.outbound|8080||payments.shop.svc.cluster.local.upstream_cx_destroy_remote_with_active_rq: 3
cluster.outbound|8080||inventory.shop.svc.cluster.local.upstream_rq_total: 0
cluster.outbound|80||ledger.finance.svc.cluster.local.upstream_rq_total: 44
cluster.xds-grpc.upstream_rq_total: 1
`;

describe('failures a client proxy reports itself', () => {
  it('counts 5xx and flagged source-side requests, not the inbound side', () => {
    expect(failuresFromIstioSamples(parsePrometheusText(SCRAPE).samples)).toBe(9);
  });
  it('tells an absent family (unknown) from zero failures', () => {
    const none = parsePrometheusText('# TYPE envoy_server_live gauge\nenvoy_server_live{} 1\n');
    expect(failuresFromIstioSamples(none.samples)).toBeNull();
    const ok = parsePrometheusText(
      'istio_requests_total{reporter="source",response_code="200",response_flags="-"} 5\n',
    );
    expect(failuresFromIstioSamples(ok.samples)).toBe(0);
  });
  it('reads the namespaces a proxy called from its own istio_requests_total, not the inbound side', () => {
    const withLabel = parsePrometheusText(
      SCRAPE +
        'istio_requests_total{reporter="source",destination_service="ledger.finance.svc.cluster.local",destination_service_namespace="finance",response_code="200",response_flags="-"} 3\n' +
        'istio_requests_total{reporter="source",destination_service="unknown",destination_service_namespace="unknown",response_code="502",response_flags="-"} 1\n' +
        'istio_requests_total{reporter="source",destination_service="idle.quiet.svc.cluster.local",response_code="200",response_flags="-"} 0\n',
    );
    expect(signalFromIstioSamples(withLabel.samples)).toEqual({
      failures: 10,
      calls: ['finance', 'shop'],
    });
    expect(signalFromIstioSamples([])).toEqual({ failures: null, calls: [] });
  });
  it('reads calls and failures from Envoy admin per-cluster counters', () => {
    expect(signalFromAdminStats(parseEnvoyStatsText(ADMIN).stats)).toEqual({
      failures: 12,
      calls: ['finance', 'shop'],
    });
    const plain = signalFromAdminStats(
      parseEnvoyStatsText('cluster.outbound|80||a.web.svc.cluster.local.upstream_rq_total: 3\n')
        .stats,
    );
    expect(plain).toEqual({ failures: null, calls: ['web'] });
  });
});

describe('ranking the clients whose logs to read', () => {
  const churn = new Map([['shop', 7]]);
  // 45 batch workers beside the servers in shop (churn there), checkout in storefront.
  const batch = Array.from({ length: 45 }, (_, i) => `shop/batch-${String(i).padStart(2, '0')}`);
  const clients = ['storefront/checkout-a', 'storefront/checkout-b'];
  const quiet: ClientSignal = { failures: null, calls: ['shop'] };

  it('reads the clients whose metrics report failures before the churned namespace', () => {
    const signals = new Map<string, ClientSignal>([
      ['storefront/checkout-a', { failures: 9, calls: ['shop'] }],
      ['storefront/checkout-b', { failures: 2, calls: ['shop'] }],
    ]);
    const r = rankClients({
      candidates: [...batch, ...clients],
      asked: [],
      signals,
      churn,
      max: 40,
    });
    expect(r.chosen.slice(0, 2).map((c) => c.pod)).toEqual(clients);
    expect(r.chosen[0]?.why).toBe('9 failing requests in its own metrics');
    expect(r.skipped).toHaveLength(7);
    expect(r.skipped.every((c) => c.reason === 'churn')).toBe(true);
  });

  it('without failure counters, clients that call the churned namespace come first', () => {
    const signals = new Map<string, ClientSignal>([
      ['storefront/checkout-a', quiet],
      ['storefront/checkout-b', quiet],
      ...batch.map((b) => [b, { failures: null, calls: [] }] as [string, ClientSignal]),
    ]);
    const r = rankClients({
      candidates: [...batch, ...clients],
      asked: [],
      signals,
      churn,
      max: 40,
    });
    expect(r.chosen.slice(0, 2).map((c) => c.reason)).toEqual(['calls-churn', 'calls-churn']);
    expect(r.chosen[0]?.why).toBe('calls shop, where 7 pods were deleted in the window');
  });

  it('always reads the clients asked for, even past the limit', () => {
    const r = rankClients({
      candidates: batch,
      asked: ['web/a', 'web/b'],
      signals: new Map(),
      churn,
      max: 1,
    });
    expect(r.chosen.map((c) => c.pod)).toEqual(['web/a', 'web/b']);
    expect(r.skipped[0]?.why).toBe('7 pods deleted in its namespace in the window');
  });
});
