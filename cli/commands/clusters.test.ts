import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './clusters';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath, readFixture } from '../../test-support/fixtures';

const dir = tempDir('clusters');
const io = () => fakeIO(dir);

const WAYPOINT = fixturePath('config_dump', 'istioctl-proxyconfig_all_types_config_dump.json');
const DETAILS = fixturePath('config_dump', 'istio-details-v1_sidecar_config_dump_camelCase.json');

describe('meshdx clusters', () => {
  it('prints the istioctl table', async () => {
    const t = io();
    expect(await run([WAYPOINT], t)).toBe(0);
    expect(t.err).toBe('');
    const lines = t.out.split('\n');
    expect(lines[0]).toMatch(/^SERVICE FQDN +PORT +SUBSET +DIRECTION +TYPE +DESTINATION RULE$/);
    expect(lines[2]).toBe(
      'httpbin.default.svc.cluster.local     8000     http       inbound-vip     EDS        ',
    );
    expect(lines).toHaveLength(5);
  });

  it('prints exactly the documented JSON shape', async () => {
    const t = io();
    expect(await run([DETAILS, '--json'], t)).toBe(0);
    const out = JSON.parse(t.out) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['kind', 'proxy', 'summary', 'clusters', 'errors']);
    expect(out.kind).toBe('envoy');
    expect(out.errors).toEqual([]);
    expect(out.proxy).toEqual({
      id: 'sidecar~10.244.0.12~details-v1-79f774bdb9-6hxw6.default~default.svc.cluster.local',
      istioVersion: '1.10.0',
    });
    const raw = JSON.parse(
      readFixture('config_dump', 'istio-details-v1_sidecar_config_dump_camelCase.json'),
    ) as {
      configs: { '@type': string; staticClusters?: unknown[]; dynamicActiveClusters?: unknown[] }[];
    };
    const section = raw.configs.find((c) => c['@type'].endsWith('ClustersConfigDump'));
    const nStatic = section?.staticClusters?.length ?? -1;
    const nDynamic = section?.dynamicActiveClusters?.length ?? -1;
    const summary = out.summary as Record<string, unknown>;
    expect(Object.keys(summary)).toEqual(['total', 'static', 'dynamic', 'byType', 'byDirection']);
    expect(summary).toMatchObject({
      total: nStatic + nDynamic,
      static: nStatic,
      dynamic: nDynamic,
    });
    expect(Object.keys(summary.byDirection as object)).toEqual(['inbound', 'outbound', 'other']);
    const clusters = out.clusters as Record<string, unknown>[];
    expect(clusters).toHaveLength(nStatic + nDynamic);
    expect(Object.keys(clusters[0] ?? {})).toEqual([
      'name',
      'fqdn',
      'port',
      'subset',
      'direction',
      'type',
      'destinationRule',
      'source',
    ]);
    expect(
      clusters.find((c) => c.name === 'outbound|9080||reviews.default.svc.cluster.local'),
    ).toEqual({
      name: 'outbound|9080||reviews.default.svc.cluster.local',
      fqdn: 'reviews.default.svc.cluster.local',
      port: 9080,
      subset: null,
      direction: 'outbound',
      type: 'EDS',
      destinationRule: null,
      source: 'dynamic',
    });
    // absent values are null in JSON, never istioctl's "-"
    const xds = clusters.find((c) => c.name === 'xds-grpc');
    expect(xds).toMatchObject({ port: null, subset: null, direction: null, source: 'static' });
    expect(clusters.every((c) => c.port === null || typeof c.port === 'number')).toBe(true);
    expect(JSON.stringify(clusters)).not.toContain('"-"');
  });

  it('prints the workload and service tables of a ztunnel dump', async () => {
    const ztunnel = fixturePath('config_dump', 'ztunnel_config_dump.json');
    const t = io();
    expect(await run([ztunnel], t)).toBe(0);
    const lines = t.out.split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+NAME\s+IP\s+NODE\s+WAYPOINT\s+PROTOCOL$/);
    expect(t.out).toMatch(
      /bookinfo\s+ratings-v1-6484c4d9bb-mdxm5\s+10\.244\.2\.54\s+ambient-worker2\s+namespace-istio-waypoint\s+HBONE/,
    );
    expect(t.out).toMatch(/^NAMESPACE\s+SERVICE NAME\s+SERVICE VIP\s+WAYPOINT\s+ENDPOINTS$/m);
    expect(t.err).toBe('');
    const j = io();
    expect(await run([ztunnel, '--json'], j)).toBe(0);
    const out = JSON.parse(j.out) as {
      kind: string;
      workloads: Record<string, unknown>[];
      services: Record<string, unknown>[];
    };
    const raw = JSON.parse(readFixture('config_dump', 'ztunnel_config_dump.json')) as {
      workloads: object;
      services: object;
    };
    expect(out.kind).toBe('ztunnel');
    expect(out.workloads).toHaveLength(Object.keys(raw.workloads).length);
    expect(out.services).toHaveLength(Object.keys(raw.services).length);
    expect(Object.keys(out.workloads[0] ?? {})).toEqual([
      'name',
      'namespace',
      'ip',
      'node',
      'waypoint',
      'protocol',
    ]);
    expect(Object.keys(out.services[0] ?? {})).toEqual(['name', 'namespace', 'vip', 'endpoints']);
  });

  it('names the file and a few shortened keys for a JSON object that is no dump', async () => {
    const file = path.join(dir, 'other.json');
    const big = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`${'k'.repeat(200)}${i}`, i]),
    );
    fs.writeFileSync(file, JSON.stringify(big));
    const t = io();
    expect(await run([file], t)).toBe(2);
    expect(t.err).toContain(file);
    expect(t.err).toContain('+36 more');
    expect(t.err.length).toBeLessThan(file.length + 300);
  });

  it('rejects a dump without a clusters section', async () => {
    const t = io();
    const secrets = fixturePath('config_dump', 'secrets_istio_config_dump.json');
    expect(await run([secrets, '--json'], t)).toBe(2);
    expect(t.err).toContain(secrets);
    expect(t.err).toContain('no ClustersConfigDump section');
  });

  it('reports broken JSON with its position', async () => {
    const file = path.join(dir, 'broken.json');
    fs.writeFileSync(file, '{\n  "configs": [\n    {,}\n  ]\n}\n');
    const t = io();
    expect(await run(['broken.json'], t)).toBe(2);
    expect(t.err).toContain(file);
    expect(t.err).toMatch(/line 3, column \d+/);
  });

  it('reads a YAML dump written by istioctl -o yaml', async () => {
    const file = path.join(dir, 'dump.yaml');
    fs.writeFileSync(
      file,
      [
        'configs:',
        '- "@type": type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
        '  dynamic_active_clusters:',
        '  - cluster:',
        '      name: outbound|80||web.shop.svc.cluster.local',
        '      type: EDS',
        '',
      ].join('\n'),
    );
    const t = io();
    expect(await run([file, '--json'], t)).toBe(0);
    expect(JSON.parse(t.out).summary).toMatchObject({ total: 1, dynamic: 1, byType: { EDS: 1 } });
  });

  it('counts the Istio 1.0-era layout exactly: configs map, camelCase, bare static clusters', async () => {
    const file = path.join(dir, 'istio-1.0.json');
    fs.writeFileSync(
      file,
      JSON.stringify(
        {
          configs: {
            bootstrap: {
              '@type': 'type.googleapis.com/envoy.admin.v2alpha.BootstrapConfigDump',
              bootstrap: { node: { id: 'sidecar~10.0.0.9~a-1.ns~ns.svc.cluster.local' } },
            },
            clusters: {
              '@type': 'type.googleapis.com/envoy.admin.v2alpha.ClustersConfigDump',
              versionInfo: '2018-08-01T00:00:00Z',
              staticClusters: [
                { name: 'xds-grpc', type: 'STRICT_DNS', connectTimeout: '10s' },
                { name: 'zipkin', type: 'STRICT_DNS' },
              ],
              dynamicActiveClusters: [
                {
                  versionInfo: 'v1',
                  cluster: { name: 'outbound|80||a.ns.svc.cluster.local', type: 'EDS' },
                },
              ],
            },
          },
        },
        null,
        2,
      ),
    );
    const t = io();
    expect(await run([file, '--json'], t)).toBe(0);
    expect(t.err).toBe('');
    expect(JSON.parse(t.out).summary).toMatchObject({ total: 3, static: 2, dynamic: 1 });
  });

  it('an entry that cannot be read: listed with its line, in --json errors[], exit 1', async () => {
    const file = path.join(dir, 'bad-entry.json');
    const dump = {
      configs: [
        {
          '@type': 'type.googleapis.com/envoy.admin.v3.ClustersConfigDump',
          static_clusters: [{ cluster: { name: 'ok', type: 'STATIC' } }, { last_updated: 'x' }],
          dynamic_active_clusters: [42],
        },
      ],
    };
    fs.writeFileSync(file, JSON.stringify(dump, null, 2));
    const t = io();
    expect(await run([file, '--json'], t)).toBe(1);
    const out = JSON.parse(t.out) as { summary: { total: number }; errors: unknown[] };
    expect(out.summary.total).toBe(1);
    expect(out.errors).toEqual([
      {
        line: 12,
        column: 9,
        reason: 'bad-entry',
        message: 'configs[0].static_clusters[1] has no cluster',
        path: 'configs[0].static_clusters[1]',
      },
      {
        line: 17,
        column: 9,
        reason: 'bad-entry',
        message: 'configs[0].dynamic_active_clusters[0] has no cluster',
        path: 'configs[0].dynamic_active_clusters[0]',
      },
    ]);
    expect(t.err).toContain('2 entries could not be read');
    expect(t.err).toContain('line 12, column 9: configs[0].static_clusters[1] has no cluster');
  });

  it('bounded input: too large, too deep, empty, binary, a log, each a message and exit 2', async () => {
    const big = path.join(dir, 'big.json');
    fs.writeFileSync(big, JSON.stringify({ configs: [], pad: 'x'.repeat(5000) }));
    const t = fakeIO(dir);
    t.limits = { maxDocumentBytes: 1000 };
    expect(await run([big], t)).toBe(2);
    expect(t.err).toMatch(
      /big\.json is 4\.\d KiB, more than the 1000 bytes .*MESHDX_MAX_INPUT_BYTES/,
    );

    const deep = path.join(dir, 'deep.json');
    fs.writeFileSync(deep, `{"configs":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const d = io();
    expect(await run([deep], d)).toBe(2);
    expect(d.err).toMatch(/deep\.json: line 1, column 267: nested deeper than 256 levels/);

    for (const [name, content, why] of [
      ['empty.json', '  \n', 'is empty'],
      ['bin.json', Buffer.from([0x7b, 0, 1, 2, 0xff]), 'binary'],
      ['gw.log', '[2024-01-01T00:00:00Z] "GET / HTTP/1.1" 200 - 0 0 1 1 "-"\n', 'invalid JSON'],
    ] as const) {
      fs.writeFileSync(path.join(dir, name), content);
      const e = io();
      expect(await run([name], e)).toBe(2);
      expect(e.err).toContain(path.join(dir, name));
      expect(e.err).toContain(why);
    }
  });

  it('fails with exit 2 on a missing file and on bad usage', async () => {
    const t = io();
    expect(await run(['nope.json'], t)).toBe(2);
    expect(t.err).toContain('no such file');
    const u = io();
    expect(await run([], u)).toBe(2);
    expect(await run([WAYPOINT, '--yaml'], u)).toBe(2);
    expect(u.err).toContain('usage: meshdx clusters');
  });
});
