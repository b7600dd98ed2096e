import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './clusters';
import { fakeIO, tempDir } from '../testing';
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
    expect(Object.keys(out)).toEqual(['proxy', 'summary', 'clusters']);
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

  it('rejects a file that is not an Envoy config dump, naming it', async () => {
    const t = io();
    const ztunnel = fixturePath('config_dump', 'ztunnel_config_dump.json');
    expect(await run([ztunnel], t)).toBe(2);
    expect(t.out).toBe('');
    expect(t.err).toContain(ztunnel);
    expect(t.err).toContain('not an Envoy config dump');
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
