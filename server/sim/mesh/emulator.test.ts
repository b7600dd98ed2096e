import { describe, it, expect } from 'vitest';
import type { EndpointSlice, Pod } from '../../../lib/kube/types';
import { readFixture } from '../../../test-support/fixtures';
import { createMeshEmulator } from './index';
import { bookinfo, makePod, worldOf, type WorldObjects } from './testworld';

type Json = Record<string, unknown>;
const q = (s = '') => new URLSearchParams(s);

function setup(mutate?: (w: WorldObjects) => void) {
  const w = bookinfo();
  mutate?.(w);
  const mesh = createMeshEmulator(worldOf(w));
  const pod = (name: string): Pod => {
    const p = (w.pods as Pod[]).find((x) => x.metadata.name === name);
    if (!p) throw new Error(name);
    return p;
  };
  return { w, mesh, pod };
}

function dump(mesh: ReturnType<typeof setup>['mesh'], pod: Pod, query = ''): { configs: Json[] } {
  const r = mesh.podHttp(pod, 15000, '/config_dump', q(query));
  expect(r.status).toBe(200);
  expect(r.contentType).toContain('json');
  return JSON.parse(r.body) as { configs: Json[] };
}

const section = (d: { configs: Json[] }, type: string) =>
  d.configs.find((c) => c['@type'] === `type.googleapis.com/envoy.admin.v3.${type}`);

/** `name{} value` or `name value` from a Prometheus text body. */
function promValue(body: string, name: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

const PP = 'productpage-v1-abc';

describe('/config_dump', () => {
  it('has the fixture dump sections by @type, never secrets', () => {
    const { mesh, pod } = setup();
    const fixture = JSON.parse(
      readFixture('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json'),
    ) as { configs: Json[] };
    const expected = fixture.configs
      .map((c) => String(c['@type']))
      .filter((t) => !t.endsWith('SecretsConfigDump'));
    const ours = dump(mesh, pod(PP), 'include_eds').configs.map((c) => String(c['@type']));
    expect(ours).toEqual(expected);
    expect(dump(mesh, pod(PP)).configs.map((c) => String(c['@type']))).toEqual(
      expected.filter((t) => !t.endsWith('EndpointsConfigDump')),
    );
    const secrets = mesh.podHttp(
      pod(PP),
      15000,
      '/config_dump',
      q('resource=dynamic_active_secrets'),
    );
    expect(JSON.parse(secrets.body)).toEqual({ configs: [] });
    expect(mesh.podHttp(pod(PP), 15000, '/config_dump', q('include_eds')).body).not.toMatch(
      /Secret|private_key/,
    );
  });

  it('shapes entries like the snake_case fixture dump', () => {
    const { mesh, pod } = setup();
    const fixture = JSON.parse(
      readFixture('config_dump', 'istio-echo-a_sidecar_config_dump.json'),
    ) as { configs: Json[] };
    const ours = dump(mesh, pod(PP));
    const keys = (d: { configs: Json[] }, field: string) =>
      Object.keys(((section(d, 'ClustersConfigDump')?.[field] as Json[]) ?? [])[0] ?? {}).sort();
    expect(keys(ours, 'dynamic_active_clusters')).toEqual(keys(fixture, 'dynamic_active_clusters'));
    expect(keys(ours, 'static_clusters')).toEqual(keys(fixture, 'static_clusters'));
    const node = (section(ours, 'BootstrapConfigDump')?.bootstrap as Json).node as Json;
    expect(node.id).toBe('sidecar~10.1.1.10~productpage-v1-abc.default~default.svc.cluster.local');
    const md = node.metadata as Json;
    expect([md.ISTIO_VERSION, md.NAME, md.NAMESPACE]).toEqual(['1.24.2', PP, 'default']);
    expect(md.LABELS).toEqual({ app: 'productpage', version: 'v1' });
    const listeners = section(ours, 'ListenersConfigDump')?.dynamic_listeners as Json[];
    const names = listeners.map((l) => l.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'virtualOutbound',
        'virtualInbound',
        '0.0.0.0_9080',
        '0.0.0.0_15014',
      ]),
    );
    const routes = (section(ours, 'RoutesConfigDump')?.dynamic_route_configs as Json[]).map(
      (r) => (r.route_config as Json).name,
    );
    expect(routes).toContain('9080');
  });

  it('returns each resource as its own element with resource= and applies mask', () => {
    const { mesh, pod } = setup();
    const full = dump(mesh, pod(PP));
    const dynamic = section(full, 'ClustersConfigDump')?.dynamic_active_clusters as Json[];
    const r = dump(
      mesh,
      pod(PP),
      'resource=dynamic_active_clusters&mask=cluster.name,cluster.type',
    );
    expect(r.configs.length).toBe(dynamic.length);
    for (const c of r.configs) {
      expect(Object.keys(c).sort()).toEqual(['@type', 'cluster']);
      expect(c['@type']).toBe(
        'type.googleapis.com/envoy.admin.v3.ClustersConfigDump.DynamicCluster',
      );
      expect(Object.keys(c.cluster as Json).sort()).toEqual(['@type', 'name', 'type']);
    }
    const eds = r.configs.filter((c) => (c.cluster as Json).type === 'EDS').length;
    expect(eds).toBeGreaterThan(0);
    expect(mesh.podHttp(pod(PP), 15000, '/config_dump', q('resource=nonsense')).status).toBe(404);
    const only = dump(mesh, pod(PP), 'resource=dynamic_active_clusters&name_regex=reviews');
    expect(only.configs.length).toBe(4);
  });
});

describe('stats', () => {
  it('reports active clusters and listeners matching the config_dump', () => {
    const { mesh, pod } = setup();
    const full = dump(mesh, pod(PP));
    const clusters = section(full, 'ClustersConfigDump');
    const count =
      (clusters?.static_clusters as Json[]).length +
      (clusters?.dynamic_active_clusters as Json[]).length;
    const lst = section(full, 'ListenersConfigDump');
    const listeners =
      (lst?.static_listeners as Json[]).length + (lst?.dynamic_listeners as Json[]).length;
    const prom = mesh.podHttp(pod(PP), 15090, '/stats/prometheus', q());
    expect(prom.status).toBe(200);
    expect(promValue(prom.body, 'envoy_cluster_manager_active_clusters')).toBe(count);
    expect(promValue(prom.body, 'envoy_listener_manager_total_listeners_active')).toBe(listeners);
    expect(promValue(prom.body, 'envoy_server_state')).toBe(0);
    expect(prom.body).toContain(
      '# TYPE envoy_cluster_manager_active_clusters gauge\nenvoy_cluster_manager_active_clusters{} ',
    );
    expect(prom.body).toMatch(/envoy_server_initialization_time_ms_bucket\{le="\+Inf"\} 1\n/);
    expect(promValue(prom.body, 'envoy_server_initialization_time_ms_count')).toBe(1);
    expect(promValue(prom.body, 'envoy_server_memory_allocated')).toBe(
      20 * 1024 * 1024 + count * 30 * 1024 + listeners * 8 * 1024,
    );
    const merged = mesh.podHttp(pod(PP), 15020, '/stats/prometheus', q());
    expect(promValue(merged.body, 'envoy_cluster_manager_active_clusters')).toBe(count);
    expect(merged.body).toContain('istio_agent_go_goroutines');
    const text = mesh.podHttp(pod(PP), 15000, '/stats', q('filter=^cluster_manager'));
    expect(text.body).toContain(`cluster_manager.active_clusters: ${count}\n`);
  });

  it('has per-cluster traffic only for called upstreams; usedonly drops zeros', () => {
    const { mesh, pod } = setup();
    const all = mesh
      .podHttp(pod(PP), 15000, '/stats', q('filter=upstream_rq_total$'))
      .body.trim()
      .split('\n');
    expect(all.length).toBeGreaterThan(10);
    const used = mesh
      .podHttp(pod(PP), 15000, '/stats', q('filter=upstream_rq_total$&usedonly'))
      .body.trim()
      .split('\n');
    expect(used.sort()).toEqual([
      'cluster.outbound|9080||reviews.default.svc.cluster.local.upstream_rq_total: 42',
      'cluster.xds-grpc.upstream_rq_total: 1',
    ]);
    expect(mesh.podHttp(pod(PP), 15000, '/stats', q('filter=(')).status).toBe(400);
  });
});

describe('/clusters and endpoints', () => {
  it('matches the fixture keys and lists pod IPs behind services', () => {
    const { mesh, pod } = setup();
    const r = mesh.podHttp(pod(PP), 15000, '/clusters', q('format=json'));
    const ours = JSON.parse(r.body) as { cluster_statuses: Json[] };
    const paths = (v: unknown, p = '', out = new Set<string>()): Set<string> => {
      if (Array.isArray(v)) v.forEach((x) => paths(x, `${p}[]`, out));
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v))
          paths(x, `${p}.${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, out);
      else out.add(p);
      return out;
    };
    const optional = /failed_outlier_check|pipe\.path/;
    const expected = [
      ...paths(JSON.parse(readFixture('clusters', 'istioctl_clusters_format_json.json'))),
    ].filter((p) => !optional.test(p));
    expect([...paths(ours)]).toEqual(expect.arrayContaining(expected));
    const hosts = (name: string) =>
      (
        (ours.cluster_statuses.find((c) => c.name === name)?.host_statuses as Json[] | undefined) ??
        []
      ).map((h) => ((h.address as Json).socket_address as Json).address);
    expect(hosts('outbound|9080||reviews.default.svc.cluster.local').sort()).toEqual([
      '10.1.1.20',
      '10.1.1.21',
    ]);
    expect(hosts('outbound|9080|v2|reviews.default.svc.cluster.local')).toEqual(['10.1.1.21']);
    expect(hosts('outbound|9080|v3|reviews.default.svc.cluster.local')).toEqual([]);
  });

  it('prefers EndpointSlices and keeps stale IPs from the client annotation', () => {
    const slice: EndpointSlice = {
      metadata: {
        name: 'reviews-x1',
        namespace: 'default',
        labels: { 'kubernetes.io/service-name': 'reviews' },
        resourceVersion: '5000',
      },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 9080 }],
      endpoints: [
        {
          addresses: ['10.1.1.20'],
          conditions: { ready: true },
          targetRef: { kind: 'Pod', name: 'reviews-v1-aaa', namespace: 'default' },
        },
      ],
    };
    const { mesh, pod } = setup((w) => {
      w.endpointslices = [slice];
      const pp = (w.pods as Pod[]).find((p) => p.metadata.name === PP);
      if (pp?.metadata.annotations)
        pp.metadata.annotations['sim.meshdx.io/stale-endpoints'] =
          'reviews.default.svc.cluster.local=10.1.1.99, bad entry';
    });
    const ours = JSON.parse(mesh.podHttp(pod(PP), 15000, '/clusters', q('format=json')).body) as {
      cluster_statuses: Json[];
    };
    const hosts = (
      (ours.cluster_statuses.find(
        (c) => c.name === 'outbound|9080||reviews.default.svc.cluster.local',
      )?.host_statuses as Json[]) ?? []
    ).map((h) => ((h.address as Json).socket_address as Json).address);
    expect(hosts).toEqual(['10.1.1.20', '10.1.1.99']);
    const plain = mesh.podHttp(pod(PP), 15000, '/clusters', q()).body;
    expect(plain).toContain(
      'outbound|9080||reviews.default.svc.cluster.local::10.1.1.99:9080::health_flags::healthy',
    );
  });
});

describe('ports and health', () => {
  it('refuses unknown ports and proxy ports of pods without a proxy', () => {
    const { mesh, pod } = setup();
    for (const port of [15000, 15090, 15020, 15021])
      expect(mesh.podHttp(pod('legacy-ddd'), port, '/ready', q()).status).toBe(502);
    const r = mesh.podHttp(pod(PP), 8080, '/', q());
    expect([r.status, r.body]).toEqual([
      502,
      'error trying to reach service: dial tcp 10.1.1.10:8080: connect: connection refused\n',
    ]);
    expect(mesh.podHttp(pod(PP), 15000, '/quitquitquit', q()).status).toBe(404);
  });

  it('answers readiness from the istio-proxy container status', () => {
    const { mesh, pod } = setup((w) => {
      (w.pods as Pod[]).push(
        makePod('starting', 'default', '10.1.1.50', { labels: { app: 'x' }, ready: false }),
      );
    });
    expect(mesh.podHttp(pod(PP), 15021, '/healthz/ready', q()).status).toBe(200);
    expect(mesh.podHttp(pod(PP), 15020, '/healthz/ready', q()).status).toBe(200);
    expect(mesh.podHttp(pod(PP), 15000, '/ready', q()).body).toBe('LIVE\n');
    expect(mesh.podHttp(pod('starting'), 15021, '/healthz/ready', q()).status).toBe(503);
    expect(mesh.podHttp(pod('starting'), 15000, '/ready', q()).status).toBe(503);
    expect(mesh.podHttp(pod(PP), 15020, '/app-health/app/readyz', q()).status).toBe(200);
    const info = JSON.parse(mesh.podHttp(pod(PP), 15000, '/server_info', q()).body) as Json;
    expect([info.state, info.uptime_current_epoch]).toEqual(['LIVE', '3600s']);
  });
});

describe('istiod', () => {
  it('syncz lists every running proxy once, with sent/acked nonces', () => {
    const { w, mesh, pod } = setup((w) => {
      const r = (w.pods as Pod[]).find((p) => p.metadata.name === 'reviews-v2-bbb');
      if (r) r.metadata.annotations = { 'sim.meshdx.io/xds-stale': 'eds' };
    });
    const r = mesh.podHttp(pod('istiod-7d9f'), 15014, '/debug/syncz', q());
    const rows = JSON.parse(r.body) as Json[];
    const proxied = (w.pods as Pod[])
      .filter((p) => p.spec.containers.some((c) => c.name === 'istio-proxy'))
      .map((p) => `${p.metadata.name}.${p.metadata.namespace}`);
    expect(rows.map((x) => x.proxy).sort()).toEqual(proxied.sort());
    const gw = rows.find((x) => x.proxy === 'istio-ingressgateway-5c6b.istio-system');
    expect(gw?.proxy_type).toBe('router');
    const pp = rows.find((x) => x.proxy === `${PP}.default`);
    expect(pp?.cluster_sent).toBe(pp?.cluster_acked);
    const stale = rows.find((x) => x.proxy === 'reviews-v2-bbb.default');
    expect(stale?.endpoint_sent).not.toBe(stale?.endpoint_acked);
    expect(stale?.cluster_sent).toBe(stale?.cluster_acked);
  });

  it('serves a proxy config_dump, 404 for unknown proxies, and metrics', () => {
    const { mesh, pod } = setup();
    const own = dump(mesh, pod(PP));
    const r = mesh.podHttp(
      pod('istiod-7d9f'),
      15014,
      '/debug/config_dump',
      q(`proxyID=${PP}.default`),
    );
    expect(JSON.parse(r.body)).toEqual(own);
    expect(
      mesh.podHttp(pod('istiod-7d9f'), 15014, '/debug/config_dump', q('proxyID=nope.default'))
        .status,
    ).toBe(404);
    const eds = JSON.parse(
      mesh.podHttp(pod('istiod-7d9f'), 15014, '/debug/edsz', q(`proxyID=${PP}.default`)).body,
    ) as Json[];
    expect(
      eds.some((c) => c.cluster_name === 'outbound|9080||reviews.default.svc.cluster.local'),
    ).toBe(true);
    const m = mesh.podHttp(pod('istiod-7d9f'), 15014, '/metrics', q()).body;
    expect(promValue(m, 'pilot_services')).toBe(5);
    expect(promValue(m, 'pilot_xds')).toBe(5);
    expect(m).toContain('pilot_xds_pushes{type="cds"}');
    expect(m).toContain('pilot_proxy_convergence_time_bucket{le="+Inf"} 5');
    expect(mesh.podHttp(pod(PP), 15014, '/debug/syncz', q()).status).toBe(502);
  });
});
