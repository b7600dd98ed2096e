import { describe, it, expect } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import type { EndpointSlice } from '../kube/types';
import { parseClustersJson, sliceAddresses, staleHosts } from './stale';

const slice = (addresses: string[]): EndpointSlice => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 's', namespace: 'shop' },
  addressType: 'IPv4',
  endpoints: addresses.map((a) => ({ addresses: [a] })),
});

describe('parseClustersJson', () => {
  const text = readFixture('clusters', 'istioctl_clusters_format_json.json');

  it('reads every host of the real istioctl test data (camelCase)', () => {
    const r = parseClustersJson(text);
    // PROVENANCE: 7 clusters, 9 hosts, 1 failedOutlierCheck
    expect(r.problem).toBeNull();
    expect(r.clusters).toBe(7);
    // 8 hosts with a socket address, 1 unix pipe host (skipped and counted)
    expect(r.hosts).toHaveLength(text.split('"socketAddress"').length - 1);
    expect(r.hosts.length + r.skipped).toBe(9);
    expect(r.skipped).toBe(text.split('"pipe"').length - 1);
    expect(r.hosts.filter((h) => h.health === 'FAILED_OUTLIER_CHECK')).toHaveLength(1);
    expect(r.hosts[0]).toEqual({
      cluster: 'outbound|443||istio-sidecar-injector.istio-system.svc.cluster.local',
      ip: '172.17.0.4',
      port: 443,
      listener: null,
      endpointId: null,
      health: 'HEALTHY',
      eds: 'HEALTHY',
      failedOutlierCheck: false,
    });
    // the ejected host keeps its EDS health beside the outlier flag
    expect(r.hosts.find((h) => h.failedOutlierCheck)).toMatchObject({
      health: 'FAILED_OUTLIER_CHECK',
      eds: 'HEALTHY',
    });
  });

  it('compares with EndpointSlices: every service host missing from them is stale', () => {
    const r = parseClustersJson(text);
    const none = staleHosts(r.hosts, new Set());
    const svcHosts = r.hosts.filter((h) =>
      /^outbound\|\d+\|[^|]*\|[^.]+\.[^.]+\.svc\./.test(h.cluster),
    );
    expect(none.checked).toBe(svcHosts.length);
    expect(none.stale).toHaveLength(svcHosts.length);
    const all = staleHosts(r.hosts, sliceAddresses([slice(svcHosts.map((h) => h.ip))]));
    expect(all.stale).toEqual([]);
  });

  it('accepts snake_case, counts hosts without an address, and reports non-JSON', () => {
    const snake = JSON.stringify({
      cluster_statuses: [
        {
          name: 'outbound|8080||payments.shop.svc.cluster.local',
          host_statuses: [
            {
              address: { socket_address: { address: '10.1.0.9', port_value: 8080 } },
              health_status: { eds_health_status: 'HEALTHY' },
            },
            { address: { pipe: { path: '/sock' } } },
          ],
        },
      ],
    });
    const r = parseClustersJson(snake);
    expect(r.hosts).toEqual([
      {
        cluster: 'outbound|8080||payments.shop.svc.cluster.local',
        ip: '10.1.0.9',
        port: 8080,
        listener: null,
        endpointId: null,
        health: 'HEALTHY',
        eds: 'HEALTHY',
        failedOutlierCheck: false,
      },
    ]);
    expect(r.skipped).toBe(1);
    expect(r.pipes).toEqual([
      {
        cluster: 'outbound|8080||payments.shop.svc.cluster.local',
        path: '/sock',
        eds: null,
        failedOutlierCheck: false,
      },
    ]);
    expect(
      staleHosts(r.hosts, sliceAddresses([slice(['10.1.0.8'])])).stale.map((h) => h.ip),
    ).toEqual(['10.1.0.9']);
    expect(parseClustersJson('<html>').problem).toMatch(/not JSON/);
    expect(parseClustersJson('{}').problem).toMatch(/cluster_statuses/);
  });

  it('keeps hosts on internal addresses with the pod IP inside, and counts hosts without one', () => {
    // a waypoint's host as Envoy's /clusters?format=json writes it (the endpoint of
    // istioctl-proxyconfig_all_types_config_dump.json's inbound-vip cluster, see PROVENANCE.md)
    const cluster = 'inbound-vip|8100|http|httpbin.default.svc.cluster.local';
    const answer = {
      cluster_statuses: [
        {
          name: cluster,
          host_statuses: [
            {
              address: {
                envoy_internal_address: {
                  server_listener_name: 'connect_originate',
                  endpoint_id: '192.168.195.248:800',
                },
              },
              health_status: { eds_health_status: 'HEALTHY' },
            },
            { address: { envoy_internal_address: { server_listener_name: 'main_internal' } } },
            { address: {} },
            {},
          ],
        },
        {
          host_statuses: [{ address: { socket_address: { address: '10.0.0.7', port_value: 80 } } }],
        },
      ],
    };
    const r = parseClustersJson('', answer);
    expect(r.hosts.map((h) => [h.cluster, h.ip, h.port, h.listener])).toEqual([
      [cluster, '192.168.195.248', 800, 'connect_originate'],
      ['', '10.0.0.7', 80, null],
    ]);
    expect(r.pipes.map((p) => p.path)).toEqual(['envoy://main_internal/']);
    // one per host: the two without any address, not the clusters they are in
    expect(r.unaddressed).toBe(2);
    expect(r.skipped).toBe(3);
    expect(r.unnamed).toBe(1);
  });
});
