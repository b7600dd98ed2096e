import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import {
  endpointHolders,
  endpointReport,
  endpointSummary,
  endpointsOfDump,
  formatEndpointTable,
  holderSummary,
} from './endpoints';
import type { IpHistory } from '../ledger/ip-history';
import type { IpLookup } from '../ledger/types';
import { parseConfigDump } from './parse';

describe('the endpoint table of /clusters?format=json', () => {
  // istioctl's own test data (camelCase, as protojson writes it)
  const report = endpointReport(readFixture('clusters', 'istioctl_clusters_format_json.json'));

  it('lists every host with its EDS health and outlier state, sorted as istioctl sorts', () => {
    expect(report.problem).toBeNull();
    expect(report.clusters).toBe(7);
    expect(report.unreadable).toBe(0);
    expect(report.rows.map((r) => r.endpoint)).toEqual([
      '172.17.0.13:443',
      '172.17.0.14:15014',
      '172.17.0.19:443',
      '172.17.0.24:9080',
      '172.17.0.26:9080',
      '172.17.0.27:9080',
      '172.17.0.4:443',
      '172.17.0.6:443',
      'unix:///sock/mixer.socket',
    ]);
    const text = formatEndpointTable(report);
    // the line istioctl's own test expects for this host (`proxy-config endpoint --port=15014`)
    expect(text).toContain(
      '172.17.0.14:15014             UNHEALTHY     OK                outbound|15014||istio-policy.istio-system.svc.cluster.local\n',
    );
    expect(text.split('\n')[0]).toMatch(/^ENDPOINT +STATUS +OUTLIER CHECK +CLUSTER$/);
    expect(report.rows.find((r) => r.failedOutlierCheck)?.endpoint).toBe('172.17.0.27:9080');
    expect(endpointSummary(report)).toBe(
      '9 endpoints in 7 clusters: 1 not HEALTHY, 1 ejected by outlier detection',
    );
  });

  it('reads snake_case, brackets IPv6, and says UNKNOWN where Envoy gives no health', () => {
    const r = endpointReport(
      JSON.stringify({
        cluster_statuses: [
          {
            name: 'outbound|8080||api.shop.svc.cluster.local',
            host_statuses: [
              { address: { socket_address: { address: 'fd00::a', port_value: 8080 } } },
              {
                address: { socket_address: { address: '10.0.0.9', port_value: 8080 } },
                health_status: { eds_health_status: 'DRAINING', failed_outlier_check: true },
              },
              { address: {} },
            ],
          },
        ],
      }),
    );
    expect(r.rows.map((x) => [x.endpoint, x.status, x.failedOutlierCheck])).toEqual([
      ['10.0.0.9:8080', 'DRAINING', true],
      ['[fd00::a]:8080', 'UNKNOWN', false],
    ]);
    expect(r.unreadable).toBe(1);
  });

  it('names what it is not', () => {
    expect(endpointReport('{"configs": []}').problem).toBe('no cluster_statuses in the answer');
    expect(endpointReport('{').problem).toMatch(/^not JSON: /);
  });
});

describe('the endpoint table of a config dump’s EDS', () => {
  // istioctl's own test dump (`/config_dump?include_eds`, EndpointsConfigDump only)
  const parsed = parseConfigDump(readFixture('config_dump', 'eds_only_config_dump.json'));
  const report = endpointsOfDump(parsed.dump!);

  it('lists every endpoint in istioctl’s order: by service, subset, port; hosts as dumped', () => {
    expect(report.hasSection).toBe(true);
    expect(report.rows).toHaveLength(36);
    expect(report.unreadable).toBe(0);
    const clusters = report.rows.map((r) => r.cluster);
    // non-Istio names sort by their whole name among the services
    expect(clusters[0]).toBe('agent');
    expect(clusters.at(-1)).toBe('xds-grpc');
    // the istiod ports in number order, the service's name first
    const istiod = clusters.filter((c) => c.endsWith('||istiod.istio-system.svc.cluster.local'));
    expect(istiod.map((c) => Number(c.split('|')[1]))).toEqual([443, 15010, 15012, 15014]);
    expect(
      clusters.indexOf(
        'outbound|9402||cert-manager-istio-csr-metrics.cert-manager.svc.cluster.local',
      ),
    ).toBeLessThan(
      clusters.indexOf('outbound|443||cert-manager-istio-csr.cert-manager.svc.cluster.local'),
    );
    // a pipe is its path, as istioctl prints it
    expect(report.rows.at(-1)?.endpoint).toBe('./etc/istio/proxy/XDS');
  });

  it('names the workload istiod sent with each endpoint, and says outlier state is not there', () => {
    const reviews = report.rows.filter(
      (r) => r.cluster === 'outbound|9080||reviews.default.svc.cluster.local',
    );
    expect(reviews.map((r) => [r.endpoint, r.workload])).toEqual([
      ['10.244.0.192:9080', 'default/reviews-v3'],
      ['10.244.0.193:9080', 'default/reviews-v2'],
      ['10.244.0.195:9080', 'default/reviews-v1'],
    ]);
    const text = formatEndpointTable(report);
    expect(text.split('\n')[0]).toMatch(/^ENDPOINT +STATUS +LOCALITY +CLUSTER +WORKLOAD$/);
    expect(report.rows.every((r) => r.failedOutlierCheck === null)).toBe(true);
    expect(endpointSummary(report)).toContain('a config dump holds no outlier ejections');
  });

  it('says when a dump has no EDS', () => {
    const full = parseConfigDump(
      readFixture('config_dump', 'istio-echo-a_sidecar_config_dump.json'),
    );
    expect(endpointsOfDump(full.dump!).hasSection).toBe(false);
  });
});

describe('who held each endpoint', () => {
  const report = endpointReport(readFixture('clusters', 'istioctl_clusters_format_json.json'));
  const gone = 'default/reviews-v3-c';
  /** A history in which 172.17.0.27 was left by its pod long before; it records the asks. */
  const asked: { ip: string; tolerance: number | undefined }[] = [];
  const history: IpHistory = {
    history: () => [],
    intervals: () => [],
    at(ip, time, gapToleranceMs): IpLookup {
      asked.push({ ip, tolerance: gapToleranceMs });
      const holder =
        ip === '172.17.0.27'
          ? { namespace: 'default', name: 'reviews-v3-c' }
          : ip === '172.17.0.24'
            ? { namespace: 'default', name: 'reviews-v1-a' }
            : null;
      const state = ip === '172.17.0.27' ? 'terminated' : holder ? 'live' : 'unknown';
      return {
        ip,
        time,
        holder: holder as IpLookup['holder'],
        state,
        afterTerminationMs: null,
        reason: `${ip} ${state}`,
      };
    },
  };
  const time = Date.parse('2024-06-01T11:00:00Z');
  const holders = endpointHolders(report.rows, history, time);

  it('looks every IP up without a gap tolerance: an endpoint of a pod gone long ago is a phantom', () => {
    expect(asked.every((a) => a.tolerance === Number.POSITIVE_INFINITY)).toBe(true);
    // the pipe host has no IP to look up
    expect(asked).toHaveLength(report.rows.length - 1);
    expect(holders.at(-1)).toBeNull();
    const row = report.rows.findIndex((r) => r.endpoint === '172.17.0.27:9080');
    expect(holders[row]).toEqual({
      pod: gone,
      state: 'terminated',
      reason: '172.17.0.27 terminated',
    });
  });

  it('adds the holder columns to the table and counts them', () => {
    const text = formatEndpointTable(report, holders);
    expect(text.split('\n')[0]).toMatch(/ +HELD BY +POD STATE$/);
    expect(text).toMatch(/172\.17\.0\.27:9080 .* default\/reviews-v3-c +terminated\n/);
    expect(holderSummary(holders, time)).toBe(
      'at 2024-06-01T11:00:00.000Z: 1 endpoints of pods already gone, 0 of terminating pods, 6 of IPs no pod is known to hold, 1 live',
    );
  });
});

describe('endpoints on internal addresses and the count of what is not shown', () => {
  it("shows a waypoint's internal-address endpoint as istioctl prints it, with the pod IP inside", () => {
    // a 1.21 waypoint's dump (PROVENANCE.md: istioctl/pkg/proxyconfig/testdata/config_dump.json)
    const text = readFixture('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json');
    const dump = parseConfigDump(text).dump;
    if (!dump) throw new Error('fixture is no dump');
    const r = endpointsOfDump(dump);
    expect(r.unreadable).toBe(0);
    const row = r.rows.find((x) => x.listener !== null);
    expect(row).toMatchObject({
      endpoint: 'envoy://connect_originate/192.168.195.248:800',
      ip: '192.168.195.248',
      port: 800,
      listener: 'connect_originate',
      cluster: 'inbound-vip|8100|http|httpbin.default.svc.cluster.local',
      workload: 'default/httpbin',
      status: 'HEALTHY',
    });
    expect(formatEndpointTable(r)).toContain('envoy://connect_originate/192.168.195.248:800');
    expect(endpointSummary(r)).toContain('1 through an internal listener');
  });

  it('keeps the hosts of assignments without a cluster name and counts hidden hosts one by one', () => {
    // DERIVED from eds_only_config_dump.json: the first 3 assignments lose their cluster_name
    // (as some Envoy-based dumps write static load assignments), and 2 hosts their address
    const raw = JSON.parse(readFixture('config_dump', 'eds_only_config_dump.json')) as {
      configs: { dynamic_endpoint_configs: { endpoint_config: Record<string, unknown> }[] }[];
    };
    const entries = raw.configs[0]?.dynamic_endpoint_configs ?? [];
    const hostsOf = (cla: Record<string, unknown>) =>
      (cla.endpoints as { lb_endpoints?: { endpoint?: unknown }[] }[]).flatMap(
        (g) => g.lb_endpoints ?? [],
      );
    const before = parseConfigDump(JSON.stringify(raw)).dump;
    if (!before) throw new Error('fixture is no dump');
    const all = endpointsOfDump(before).rows.length;
    let unnamedHosts = 0;
    for (const e of entries.slice(0, 3)) {
      delete e.endpoint_config.cluster_name;
      unnamedHosts += hostsOf(e.endpoint_config).length;
    }
    const last = entries.at(-1)?.endpoint_config;
    const lbs = last ? hostsOf(last) : [];
    for (const lb of lbs.slice(0, 2)) lb.endpoint = {};
    const dump = parseConfigDump(JSON.stringify(raw)).dump;
    if (!dump) throw new Error('derived fixture is no dump');
    const r = endpointsOfDump(dump);
    expect(unnamedHosts).toBeGreaterThan(3);
    expect(r.unnamed).toBe(3);
    expect(r.rows.filter((x) => x.cluster === '')).toHaveLength(unnamedHosts);
    expect(r.unreadable).toBe(Math.min(2, lbs.length));
    expect(r.rows.length + r.unreadable).toBe(all);
  });
});
