import { describe, it, expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { KubeObject, Pod, Service, ServiceEntry, Sidecar } from '../kube/types';
import { makePod, makeService, makeSidecar } from '../../server/sim/mesh/testworld';
import { egressHostFindings, sidecarSelectionFindings, windowFindings } from './checks';
import { buildMeshModel } from './scopes';
import { objectKeyOf } from '../refs/object-ref';

const codes = (fs: { code: string; subject: { name: string } }[]) =>
  fs.map((f) => `${f.code}:${f.subject.name}`).sort();

describe('sidecarSelectionFindings', () => {
  const pods: Pod[] = [
    makePod('a-1', 'shop', '10.0.0.1', { labels: { app: 'a' } }),
    makePod('b-1', 'shop', '10.0.0.2', { labels: { app: 'b', tier: 'web' } }),
  ];

  it('reports every selector-less Sidecar of a namespace that has two (IST0111)', () => {
    const f = sidecarSelectionFindings(
      [
        makeSidecar('one', 'shop', ['./*']),
        makeSidecar('two', 'shop', ['./*']),
        makeSidecar('x', 'other', ['./*']),
      ],
      pods,
      'istio-system',
    );
    expect(codes(f)).toEqual(['IST0111:one', 'IST0111:two']);
    expect(f[0]?.evidence.conflictingSidecars).toBe('one, two');
  });

  it('reports a selector that matches no pod (IST0101) and overlapping selectors (IST0110)', () => {
    const f = sidecarSelectionFindings(
      [
        makeSidecar('ghost', 'shop', ['./*'], { app: 'nope' }),
        makeSidecar('by-app', 'shop', ['./*'], { app: 'b' }),
        makeSidecar('by-tier', 'shop', ['./*'], { tier: 'web' }),
        makeSidecar('only-a', 'shop', ['./*'], { app: 'a' }),
      ],
      pods,
      'istio-system',
    );
    expect(codes(f)).toEqual(['IST0101:ghost', 'IST0110:by-app', 'IST0110:by-tier']);
    expect(f.find((x) => x.code === 'IST0110')?.evidence.workloadPod).toBe('b-1');
  });

  it('reports a workloadSelector on the root namespace default (MDX0302)', () => {
    const rootPods = [makePod('x-1', 'istio-system', '10.0.0.9', { labels: { app: 'x' } })];
    const f = sidecarSelectionFindings(
      [makeSidecar('default', 'istio-system', ['./*'], { app: 'x' })],
      rootPods,
      'istio-system',
    );
    expect(codes(f)).toEqual(['MDX0302:default']);
    const ok = sidecarSelectionFindings(
      [
        makeSidecar('default', 'istio-system', ['./*']),
        makeSidecar('x', 'istio-system', ['./*'], { app: 'x' }),
      ],
      rootPods,
      'istio-system',
    );
    expect(ok).toEqual([]);
  });
});

describe('egressHostFindings', () => {
  const services: Service[] = [
    makeService('cart', 'shop', [{ port: 80, name: 'http' }]),
    makeService('istiod', 'istio-system', [{ port: 15012, name: 'grpc' }]),
  ];
  const model = buildMeshModel(services, [], [], 'istio-system');

  it('flags hosts that select nothing (MDX0303) and invalid hosts (MDX0304)', () => {
    const f = egressHostFindings(
      [
        makeSidecar('s', 'shop', [
          './*',
          'istio-system/*',
          'billing/*',
          'shop/carts.shop.svc.cluster.local',
          'nonsense',
          '~/*',
        ]),
      ],
      model,
    );
    expect(f.map((x) => `${x.code}:${String(x.evidence.host)}`)).toEqual([
      'MDX0304:nonsense',
      'MDX0303:billing/*',
      'MDX0303:shop/carts.shop.svc.cluster.local',
    ]);
  });

  it('checks the real pilot test Sidecars (se-example, none, se-example-gw)', () => {
    const objs: (KubeObject & { spec?: unknown })[] = [];
    for (const file of ['se-example.yaml', 'none.yaml', 'se-example-gw.yaml']) {
      for (const d of parseAllDocuments(
        readFixture('istio_config', 'pilot_testdata_config', file),
      )) {
        const o = d.toJS() as (KubeObject & { spec?: unknown }) | null;
        if (o?.metadata) objs.push(o);
      }
    }
    const sidecars = objs.filter((o) => o.kind === 'Sidecar') as unknown as Sidecar[];
    const entries = objs.filter((o) => o.kind === 'ServiceEntry') as unknown as ServiceEntry[];
    const svcs = objs.filter((o) => o.kind === 'Service') as unknown as Service[];
    expect(sidecars.map((s) => objectKeyOf(s)).sort()).toEqual([
      'exampleegressgw/default',
      'none/default',
      'seexamples/default',
    ]);
    const f = egressHostFindings(sidecars, buildMeshModel(svcs, entries, [], 'istio-system'));
    // Each fixture namespace holds ServiceEntries for its own `ns/*`; `default/test.default`
    // in none.yaml names a host no fixture defines.
    const nsWithEntries = new Set(entries.map((e) => e.metadata.namespace));
    expect(nsWithEntries.has('seexamples') && nsWithEntries.has('exampleegressgw')).toBe(true);
    const flagged = f.map((x) => `${x.subject.namespace}:${String(x.evidence.host)}`);
    expect(flagged).toContain('none:default/test.default');
    expect(flagged).not.toContain('seexamples:seexamples/*');
    expect(flagged).not.toContain('exampleegressgw:exampleegressgw/*');
  });
});

describe('windowFindings', () => {
  it('accepts a window of at least the minimum and flags shorter, reversed or unparsable ones', () => {
    expect(
      windowFindings({ start: '2024-01-01T00:00:00Z', end: '2024-01-01T01:00:00Z' }, 3600),
    ).toEqual([]);
    expect(
      windowFindings({ start: '2024-01-01T00:00:00Z', end: '2024-01-01T00:59:59Z' }, 3600)[0]
        ?.evidence.seconds,
    ).toBe(3599);
    expect(
      windowFindings({ start: '2024-01-01T02:00:00Z', end: '2024-01-01T01:00:00Z' }, 3600)[0]
        ?.evidence.seconds,
    ).toBeNull();
    expect(windowFindings({ start: 'yesterday', end: 'now' }, 60)[0]?.code).toBe('MDX0307');
  });
});
