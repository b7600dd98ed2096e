import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { ProxyDetailSchema } from '../api/proxies';
import { extractClusters } from '../configdump/clusters';
import { listenerCounts, routeCounts } from '../configdump/counts';
import { parseConfigDump } from '../configdump/parse';
import { buildProxyDetail, destinationNamespace } from './detail';

const FILE = 'istio-details-v1_sidecar_config_dump_camelCase.json';

function fixtureDump() {
  const r = parseConfigDump(readFixture('config_dump', FILE));
  if (!r.dump) throw new Error('fixture did not parse');
  return r.dump;
}

/** Independent count of Istio-named clusters (DIRECTION|PORT|SUBSET|FQDN) in the raw text. */
function rawClusterNames(): string[] {
  const v = JSON.parse(readFixture('config_dump', FILE)) as {
    configs: {
      '@type': string;
      staticClusters?: { cluster: { name: string } }[];
      dynamicActiveClusters?: { cluster: { name: string } }[];
    }[];
  };
  const c = v.configs.find((x) => x['@type'].endsWith('ClustersConfigDump'));
  return [...(c?.staticClusters ?? []), ...(c?.dynamicActiveClusters ?? [])].map(
    (e) => e.cluster.name,
  );
}

describe('buildProxyDetail on a real sidecar config dump (bookinfo details-v1)', () => {
  const dump = fixtureDump();
  const x = extractClusters(dump);
  const names = rawClusterNames();

  it('lists every cluster with the exact service / static split', () => {
    const d = ProxyDetailSchema.parse(
      buildProxyDetail({
        namespace: 'default',
        name: 'details-v1-79f774bdb9-6hxw6',
        fetchedAt: new Date('2026-01-01T00:00:00Z'),
        clusters: { rows: x.rows, warming: x.warming },
        listeners: listenerCounts(dump),
        routes: routeCounts(dump),
        usage: null,
        errors: [],
      }),
    );
    expect(d.clusters.length).toBe(names.length);
    expect(d.summary.total).toBe(28); // 23 dynamic active + 5 static (PROVENANCE.md)
    expect(d.summary.static).toBe(5);
    expect(d.summary.service).toBe(names.filter((n) => n.split('|').length === 4).length);
    expect(d.listeners).toMatchObject({ static: 2, dynamic: 16 });
    expect(d.usage).toEqual({ available: false, used: 0, unused: 0, unmatched: 0 });
    expect(d.clusters.every((c) => c.used === null)).toBe(true);
    const istioSystem = d.byNamespace.find((n) => n.namespace === 'istio-system');
    const expected = names.filter(
      (n) => n.startsWith('outbound|') && n.endsWith('.istio-system.svc.cluster.local'),
    ).length;
    expect(istioSystem?.clusters).toBe(expected);
  });

  it('marks used and unused clusters from upstream counters, counting unmatched counters', () => {
    const used = names.find((n) => n.startsWith('outbound|'));
    expect(used).toBeDefined();
    const d = buildProxyDetail({
      namespace: 'default',
      name: 'p',
      fetchedAt: new Date(0),
      clusters: { rows: x.rows, warming: 0 },
      listeners: null,
      routes: null,
      usage: {
        counters: {
          [used as string]: { upstream_rq_total: 3 },
          'xds-grpc': { upstream_cx_total: 1, upstream_rq_total: 7 },
          'outbound|1||gone.default.svc.cluster.local': { upstream_cx_total: 1 },
        },
      },
      errors: [{ part: 'routes', message: 'timeout' }],
    });
    // used/unused over outbound service clusters only: not xds-grpc, inbound or BlackHole
    const outbound = names.filter((n) => n.startsWith('outbound|'));
    expect(outbound.length).toBeLessThan(names.length);
    expect(d.usage).toEqual({
      available: true,
      used: 1,
      unused: outbound.length - 1,
      unmatched: 1,
    });
    expect(d.clusters.find((c) => c.name === used)?.used).toBe(true);
    expect(d.errors).toEqual([{ part: 'routes', message: 'timeout' }]);
  });

  it('takes the destination namespace from NAME.NS.svc hosts only', () => {
    expect(destinationNamespace('reviews.bookinfo.svc.cluster.local')).toBe('bookinfo');
    expect(destinationNamespace('reviews.bookinfo.svc')).toBe('bookinfo');
    expect(destinationNamespace('www.example.com')).toBeNull();
    expect(destinationNamespace('BlackHoleCluster')).toBeNull();
    expect(destinationNamespace('')).toBeNull();
  });
});
