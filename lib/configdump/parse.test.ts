import { describe, it, expect } from 'vitest';
import { stringify } from 'yaml';
import { parseConfigDump } from './parse';
import { analyzeClusterDump } from './report';
import { extractClusters } from './clusters';
import { CLUSTERS_TYPE, cluster, handDump, toCamel } from '../../tests/data/configdump/dumps';

function okReport(text: string) {
  const r = analyzeClusterDump(text);
  if (!r.ok) throw new Error(`expected a report, got ${JSON.stringify(r.errors)}`);
  return r.report;
}

describe('parseConfigDump: layouts and spellings', () => {
  const snake = JSON.stringify(handDump());

  it('reads snake_case and camelCase dumps to the same rows', () => {
    const a = okReport(snake);
    const b = okReport(JSON.stringify(toCamel(handDump())));
    expect(b.clusters).toEqual(a.clusters);
    expect(b.proxy).toEqual(a.proxy);
    expect(a.clusters).toHaveLength(6);
    expect(a.warmingClusters).toBe(1);
  });

  it('reads YAML (istioctl -o yaml) to the same rows as JSON', () => {
    const parsed = parseConfigDump(stringify(handDump()));
    expect(parsed.errors).toEqual([]);
    expect(parsed.dump?.syntax).toBe('yaml');
    expect(okReport(stringify(handDump())).clusters).toEqual(okReport(snake).clusters);
  });

  it('reads the v2alpha layout where configs is a map keyed by name', () => {
    const dump = handDump();
    const list = dump.configs as Record<string, unknown>[];
    const v2 = {
      configs: {
        bootstrap: {
          ...list[0],
          '@type': 'type.googleapis.com/envoy.admin.v2alpha.BootstrapConfigDump',
        },
        clusters: { ...list[1], '@type': undefined },
      },
    };
    const parsed = parseConfigDump(JSON.stringify(v2));
    expect(parsed.dump?.layout).toBe('configs-map');
    expect(parsed.dump?.sections.map((s) => s.kind).sort()).toEqual(['bootstrap', 'clusters']);
    const report = okReport(JSON.stringify(v2));
    expect(report.clusters).toEqual(okReport(snake).clusters);
    expect(report.proxy.istioVersion).toBe('1.22.1');
  });

  it('reads ?resource=dynamic_active_clusters output (one DynamicCluster per entry)', () => {
    const text = JSON.stringify({
      configs: [
        {
          '@type': `${CLUSTERS_TYPE}.DynamicCluster`,
          version_info: '1',
          cluster: cluster('outbound|80||web.shop.svc.cluster.local', { type: 'EDS' }),
        },
        {
          '@type': `${CLUSTERS_TYPE}.DynamicCluster`,
          cluster: cluster('PassthroughCluster', { type: 'ORIGINAL_DST' }),
        },
        {
          '@type': `${CLUSTERS_TYPE}.StaticCluster`,
          cluster: cluster('xds-grpc', { type: 'STATIC' }),
        },
      ],
    });
    const parsed = parseConfigDump(text);
    expect(parsed.dump?.layout).toBe('resource-list');
    const report = okReport(text);
    expect(report.summary).toMatchObject({ total: 3, static: 1, dynamic: 2 });
    expect(report.clusters.map((c) => c.fqdn)).toEqual([
      'PassthroughCluster',
      'web.shop.svc.cluster.local',
      'xds-grpc',
    ]);
  });

  it('unwraps one level of wrapper object around configs', () => {
    const text = JSON.stringify({ 'gw-1.istio-system': handDump() });
    expect(okReport(text).clusters).toHaveLength(6);
  });
});

describe('parseConfigDump: errors are data', () => {
  it('reports invalid JSON with a line and column', () => {
    const r = parseConfigDump('{\n  "configs": [\n    {"@type": }\n  ]\n}');
    expect(r.dump).toBeNull();
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.reason).toBe('syntax');
    expect(r.errors[0]?.line).toBe(3);
    expect(r.errors[0]?.column).toBeGreaterThan(1);
  });

  it('reports truncated JSON at the end of the input', () => {
    const text = '{"configs": [';
    const r = parseConfigDump(text);
    expect(r.errors[0]).toMatchObject({ reason: 'syntax', line: 1 });
  });

  it('reports invalid YAML with a line', () => {
    const r = parseConfigDump('configs:\n  - "@type": x\n   bad: [unclosed\n');
    expect(r.dump).toBeNull();
    expect(r.errors[0]?.reason).toBe('syntax');
    expect(r.errors[0]?.line).toBeGreaterThanOrEqual(2);
  });

  it('says "not an Envoy config dump" for other JSON', () => {
    for (const text of ['{"kind":"Pod","metadata":{}}', '[1,2]', '"configs"', 'just some words']) {
      const r = parseConfigDump(text);
      expect(r.dump).toBeNull();
      expect(r.errors[0]?.reason).toBe('not-config-dump');
      expect(r.errors[0]?.message).toMatch(/^not an Envoy config dump: /);
    }
  });

  it('says "not an Envoy config dump" when no configs entry has an admin @type', () => {
    const r = parseConfigDump(
      JSON.stringify({ configs: [{ '@type': 'type.googleapis.com/foo.Bar' }, 7] }),
    );
    expect(r.dump).toBeNull();
    expect(r.errors.map((e) => e.reason)).toEqual([
      'not-config-dump',
      'unknown-section',
      'bad-entry',
    ]);
  });

  it('reports an empty input', () => {
    expect(parseConfigDump('  \n').errors[0]?.reason).toBe('empty');
  });

  it('keeps going past bad entries and counts them', () => {
    const dump = handDump();
    const section = (dump.configs as Record<string, unknown>[])[1] as Record<string, unknown>;
    (section.dynamic_active_clusters as unknown[]).push(
      { version_info: 'x' },
      { cluster: { type: 'EDS' } },
      'junk',
    );
    (dump.configs as unknown[]).push({ '@type': 'type.googleapis.com/other.Thing' });
    const parsed = parseConfigDump(JSON.stringify(dump));
    expect(parsed.errors.map((e) => e.reason)).toEqual(['unknown-section']);
    const ex = extractClusters(parsed.dump!);
    expect(ex.rows).toHaveLength(6);
    expect(ex.errors.map((e) => e.path)).toEqual([
      'configs[1].dynamic_active_clusters[5]',
      'configs[1].dynamic_active_clusters[6]',
      'configs[1].dynamic_active_clusters[7]',
    ]);
  });

  it('reports a dump without a clusters section specifically', () => {
    const r = analyzeClusterDump(
      JSON.stringify({ configs: [handDump().configs as unknown[]][0]?.slice(0, 1) }),
    );
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors[0]?.reason).toBe('no-clusters-section');
      expect(r.errors[0]?.message).toContain('found: bootstrap');
    }
  });
});
