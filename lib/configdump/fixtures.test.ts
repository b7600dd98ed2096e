import { describe, it, expect } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { listFixtures, readFixture } from '../../test-support/fixtures';
import { analyzeClusterDump } from './report';
import { formatClusterTable } from './table';

/** Counts read straight from the raw document, independently of the parser under test. */
function rawCounts(text: string): { static: number; dynamic: number; hasClusters: boolean } {
  const doc = (text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text)) as {
    configs?: Record<string, unknown>[];
  };
  const section = (doc.configs ?? []).find((c) =>
    String(c['@type']).endsWith('.ClustersConfigDump'),
  );
  const len = (a: string, b: string) => ((section?.[a] ?? section?.[b] ?? []) as unknown[]).length;
  return {
    static: len('static_clusters', 'staticClusters'),
    dynamic: len('dynamic_active_clusters', 'dynamicActiveClusters'),
    hasClusters: section !== undefined,
  };
}

function report(file: string) {
  const r = analyzeClusterDump(readFixture('config_dump', file));
  if (!r.ok) throw new Error(`${file}: ${JSON.stringify(r.errors)}`);
  return r.report;
}

const DETAILS = 'istio-details-v1_sidecar_config_dump_camelCase.json';
const ECHO = 'istio-echo-a_sidecar_config_dump.json';
const WAYPOINT = 'istioctl-proxyconfig_all_types_config_dump.json';

describe('every config_dump fixture', () => {
  const files = listFixtures('config_dump');

  it('covers the fixture directory', () => {
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  for (const file of files) {
    it(`reads ${file} consistently with its raw content`, () => {
      const text = readFixture('config_dump', file);
      const result = analyzeClusterDump(text);
      if (file.startsWith('ztunnel')) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.errors[0]?.message).toMatch(/^not an Envoy config dump/);
        return;
      }
      const raw = rawCounts(text);
      if (!raw.hasClusters) {
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.errors[0]?.reason).toBe('no-clusters-section');
        return;
      }
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const { summary, errors, clusters } = result.report;
      expect(errors).toEqual([]);
      expect(summary.static).toBe(raw.static);
      expect(summary.dynamic).toBe(raw.dynamic);
      expect(summary.total).toBe(raw.static + raw.dynamic);
      expect(clusters).toHaveLength(summary.total);
      const byDir = summary.byDirection;
      expect(byDir.inbound + byDir.outbound + byDir.other).toBe(summary.total);
      expect(Object.values(summary.byType).reduce((a, b) => a + b, 0)).toBe(summary.total);
      expect(summary.service + summary.nonService).toBe(summary.total);
    });
  }

  it('matches the counts recorded in PROVENANCE.md', () => {
    expect(report(DETAILS).summary).toMatchObject({ dynamic: 23, static: 5 });
    expect(report(ECHO).summary).toMatchObject({ dynamic: 84, static: 3 });
    expect(report(WAYPOINT).summary).toMatchObject({ dynamic: 1, static: 2 });
  });
});

describe('details-v1 (camelCase, Istio 1.10)', () => {
  const r = report(DETAILS);
  const text = formatClusterTable(r.clusters);
  const lines = text.split('\n');

  it('identifies the proxy', () => {
    expect(r.proxy).toMatchObject({
      id: 'sidecar~10.244.0.12~details-v1-79f774bdb9-6hxw6.default~default.svc.cluster.local',
      proxyType: 'sidecar',
      ip: '10.244.0.12',
      podName: 'details-v1-79f774bdb9-6hxw6',
      podNamespace: 'default',
      istioVersion: '1.10.0',
    });
    expect(r.listeners).toMatchObject({ static: 2, dynamic: 16 });
    expect(r.routes).toMatchObject({ static: 8, dynamic: 6 });
  });

  it('prints the table istioctl prints', () => {
    // Widest FQDN is istio-ingressgateway.istio-system.svc.cluster.local (51) + 5 padding.
    const fqdnWidth = 'istio-ingressgateway.istio-system.svc.cluster.local'.length + 5;
    expect(lines[0]).toBe(
      'SERVICE FQDN'.padEnd(fqdnWidth) +
        'PORT'.padEnd(10) +
        'SUBSET'.padEnd(11) +
        'DIRECTION'.padEnd(14) +
        'TYPE'.padEnd(17) +
        'DESTINATION RULE',
    );
    // inbound|9080|| has an empty FQDN and sorts first.
    expect(lines[1]).toBe(
      ''.padEnd(fqdnWidth) +
        '9080'.padEnd(10) +
        '-'.padEnd(11) +
        'inbound'.padEnd(14) +
        'ORIGINAL_DST'.padEnd(17),
    );
    expect(lines).toContain(
      'reviews.default.svc.cluster.local'.padEnd(fqdnWidth) +
        '9080'.padEnd(10) +
        '-'.padEnd(11) +
        'outbound'.padEnd(14) +
        'EDS'.padEnd(17),
    );
    expect(lines).toContain(
      'zipkin'.padEnd(fqdnWidth) +
        '-'.padEnd(10) +
        '-'.padEnd(11) +
        '-'.padEnd(14) +
        'STRICT_DNS'.padEnd(17),
    );
    expect(lines).toHaveLength(r.clusters.length + 2); // header + rows + final ''
  });

  it('sorts by FQDN, then subset, then port numerically', () => {
    const istiod = r.clusters.filter((c) => c.fqdn === 'istiod.istio-system.svc.cluster.local');
    expect(istiod.map((c) => c.port)).toEqual([443, 15010, 15012, 15014]);
    expect(r.clusters[1]?.name).toBe('BlackHoleCluster');
    expect(r.clusters.at(-1)?.name).toBe('zipkin');
  });
});

describe('echo a (snake_case, Istio 1.0)', () => {
  const r = report(ECHO);

  it('parses subsets and old DestinationRule paths', () => {
    const grpc = r.clusters.find(
      (c) => c.name === 'inbound|7070|grpc|a.apps-1-99281.svc.cluster.local',
    );
    expect(grpc).toEqual({
      name: 'inbound|7070|grpc|a.apps-1-99281.svc.cluster.local',
      fqdn: 'a.apps-1-99281.svc.cluster.local',
      port: 7070,
      subset: 'grpc',
      direction: 'inbound',
      type: 'STATIC',
      destinationRule: '',
      source: 'dynamic',
    });
    // /apis/networking/v1alpha3/... is not the networking.istio.io path istioctl renders.
    const policy = r.clusters.find(
      (c) => c.name === 'outbound|15004||istio-policy.istio-system.svc.cluster.local',
    );
    expect(policy?.destinationRule).toBe('<unknown>');
    expect(r.clusters.find((c) => c.name === 'xds-grpc')).toMatchObject({
      fqdn: 'xds-grpc',
      port: '-',
      subset: '-',
      direction: '-',
      type: 'STRICT_DNS',
      source: 'static',
    });
  });

  it('splits service clusters from the rest', () => {
    const doc = JSON.parse(readFixture('config_dump', ECHO)) as {
      configs: { '@type': string; [k: string]: unknown }[];
    };
    const section = doc.configs.find((c) => c['@type'].endsWith('ClustersConfigDump'));
    const entries = [
      ...(section?.static_clusters as { cluster: { name: string } }[]),
      ...(section?.dynamic_active_clusters as { cluster: { name: string } }[]),
    ];
    const service = entries.filter((e) => /^(in|out)bound\|/.test(e.cluster.name));
    expect(r.summary.service).toBe(service.length);
    expect(r.summary.nonService).toBe(5); // BlackHole, Passthrough, prometheus_stats, xds-grpc, zipkin
  });
});

describe('waypoint (Istio 1.21)', () => {
  it('prints inbound-vip clusters like istioctl proxy-config all', () => {
    const r = report(WAYPOINT);
    expect(r.proxy.proxyType).toBe('waypoint');
    expect(r.proxy.istioVersion).toBe('1.21.0-1226');
    expect(formatClusterTable(r.clusters)).toBe(
      [
        'SERVICE FQDN                          PORT     SUBSET     DIRECTION       TYPE       DESTINATION RULE',
        'agent                                 -        -          -               STATIC     ',
        'httpbin.default.svc.cluster.local     8000     http       inbound-vip     EDS        ',
        'prometheus_stats                      -        -          -               STATIC     ',
        '',
      ].join('\n'),
    );
  });
});
