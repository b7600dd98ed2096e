import { describe, expect, it } from 'vitest';
import { foldBloat, namespaceClustersQuery, rangeStep, steps } from './range';
import { markersFor, sidecarMarker } from './markers';
import type { Sidecar } from '../kube/types';

const T0 = Date.parse('2026-11-01T12:00:00Z');

describe('rangeStep', () => {
  it('sizes the step so the window fits the point budget', () => {
    expect(rangeStep(T0, T0 + 3_600_000)).toBe(16); // 1 h in 240 points
    expect(rangeStep(T0, T0 + 24 * 3_600_000)).toBe(362);
    expect(steps(T0, T0 + 24 * 3_600_000, 362).length).toBeLessThanOrEqual(240);
    expect(rangeStep(T0, T0 + 10_000)).toBe(1); // never below a second
    expect(rangeStep(T0, T0 + 600_000, 240, 15)).toBe(15);
  });
  it('refuses an empty or reversed window', () => {
    expect(() => rangeStep(T0, T0)).toThrow(/not after/);
    expect(() => rangeStep(T0, T0 - 1)).toThrow(/not after/);
  });
});

describe('namespaceClustersQuery', () => {
  it('quotes the namespace as a PromQL string', () => {
    expect(namespaceClustersQuery('shop')).toBe(
      'max by (namespace, pod) (envoy_cluster_manager_active_clusters{namespace="shop"})',
    );
    expect(namespaceClustersQuery('a"b\\c')).toContain('{namespace="a\\"b\\\\c"}');
  });
});

describe('foldBloat', () => {
  const at = steps(T0, T0 + 4_000, 1); // 5 steps
  const wl = (pod: string) =>
    pod.startsWith('api-') ? 'api' : pod.startsWith('web-') ? 'web' : null;

  it('averages per proxy at each step, keeps gaps as null and counts who reported', () => {
    const f = foldBloat(
      'shop',
      [
        // api-1 reports throughout, drops from 1200 to 40 at the third step (a Sidecar)
        { pod: 'api-1', samples: at.map((t, i) => [t, i < 2 ? 1200 : 40] as const) },
        // api-2 started late: no samples for the first two steps
        { pod: 'api-2', samples: at.slice(2).map((t) => [t, 42] as const) },
        // web-1 vanished after the second step (a rollout)
        { pod: 'web-1', samples: at.slice(0, 2).map((t) => [t, 1000] as const) },
        // a pod the inventory does not know (gone before meshdx saw it)
        { pod: 'old-7', samples: [[at[0] ?? 0, 900]] },
      ],
      wl,
      at,
    );
    expect(f.unattributedPods).toBe(1);
    expect(f.namespace.points[0]).toEqual({ t: T0, proxies: 3, avg: 1033.3, max: 1200 });
    expect(f.namespace.points[2]).toEqual({ t: T0 + 2000, proxies: 2, avg: 41, max: 42 });
    const api = f.workloads.find((w) => w.name === 'api');
    expect(api?.pods).toBe(2);
    expect(api?.points.map((p) => p.avg)).toEqual([1200, 1200, 41, 41, 41]);
    const web = f.workloads.find((w) => w.name === 'web');
    // after web-1 is gone its line has gaps, not zeros
    expect(web?.points.map((p) => p.avg)).toEqual([1000, 1000, null, null, null]);
    expect(web?.points[4]?.proxies).toBe(0);
  });

  it('ignores samples off the step grid and non-finite values, and says how many', () => {
    const f = foldBloat(
      'shop',
      [
        {
          pod: 'api-1',
          samples: [
            [T0 + 500, 7],
            [T0, Number.NaN],
            [T0 + 1000, 5],
          ],
        },
      ],
      wl,
      at,
    );
    expect(f.offGrid).toBe(1);
    expect(f.namespace.points.map((p) => p.avg)).toEqual([null, 5, null, null, null]);
    expect(f.implausible.count).toBe(1);
  });

  it('leaves counts that cannot be out of every line, counted once with what was read', () => {
    const f = foldBloat(
      'shop',
      [
        { pod: 'api-1', samples: at.map((t, i) => [t, [40, -5, 1e23, 40.5, 40][i] ?? 0] as const) },
        { pod: 'api-2', samples: at.map((t) => [t, 42] as const) },
      ],
      wl,
      at,
    );
    // a step with one believable proxy averages that one, and says one reported
    expect(f.namespace.points.map((p) => p.avg)).toEqual([41, 42, 42, 42, 41]);
    expect(f.namespace.points.map((p) => p.proxies)).toEqual([2, 1, 1, 1, 2]);
    expect(f.namespace.points[2]?.max).toBe(42);
    expect(f.workloads.find((w) => w.name === 'api')?.points[1]?.avg).toBe(42);
    expect(f.implausible.count).toBe(3);
    expect(f.implausible.examples.map((e) => e.raw)).toEqual(['-5', '1e+23', '40.5']);
    expect(f.implausible.examples[0]?.figure).toContain('pod="api-1"');
  });

  it('leaves gateways out of the namespace line, which a Sidecar scopes, and keeps their own line', () => {
    // an ingress gateway in the app namespace carries every cluster, before and after the
    // namespace's Sidecar: averaged in, it would hide the sidecars' drop
    const series = [
      { pod: 'api-1', samples: at.map((t, i) => [t, i < 2 ? 1200 : 40] as const) },
      { pod: 'gw-1', samples: at.map((t) => [t, 1300] as const) },
    ];
    const gw = (pod: string) => (pod.startsWith('gw-') ? 'gw' : wl(pod));
    const f = foldBloat('shop', series, gw, at, (pod) => pod.startsWith('gw-'));
    expect(f.unscopablePods).toBe(1);
    expect(f.namespace.pods).toBe(1);
    expect(f.namespace.points.map((p) => p.avg)).toEqual([1200, 1200, 40, 40, 40]);
    expect(f.workloads.find((w) => w.name === 'gw')?.points.map((p) => p.avg)).toEqual([
      1300, 1300, 1300, 1300, 1300,
    ]);
    // without the rule the namespace's average hides the drop: what the fold used to draw
    expect(foldBloat('shop', series, gw, at).namespace.points[2]?.avg).toBe(670);
  });

  it('an empty answer is all gaps', () => {
    const f = foldBloat('shop', [], wl, at);
    expect(f.workloads).toEqual([]);
    expect(f.namespace.points.every((p) => p.avg === null && p.proxies === 0)).toBe(true);
  });
});

describe('Sidecar markers', () => {
  const sc = (name: string, meta: Record<string, unknown>, labels?: Record<string, string>) =>
    ({
      metadata: { name, namespace: 'shop', ...meta },
      spec: labels ? { workloadSelector: { labels } } : {},
    }) as Sidecar;

  it('takes the newest managedFields time over the creation time', () => {
    const m = sidecarMarker(
      sc('default', {
        creationTimestamp: '2026-11-01T10:00:00Z',
        managedFields: [
          { manager: 'kubectl', time: '2026-11-01T11:00:00Z' },
          { manager: 'kubectl-edit', time: '2026-11-01T11:30:00Z' },
          { manager: 'broken', time: 'yesterday' },
        ],
      }),
    );
    expect(m).toMatchObject({ at: Date.parse('2026-11-01T11:30:00Z'), from: 'managedFields' });
    expect(m.selector).toBeNull();
  });

  it('falls back to the creation time, and says when there is none', () => {
    expect(sidecarMarker(sc('a', { creationTimestamp: '2026-11-01T10:00:00Z' })).from).toBe(
      'creationTimestamp',
    );
    expect(sidecarMarker(sc('b', {}))).toMatchObject({ at: null, from: null });
  });

  it("keeps the namespace's own and the mesh default inside the window, oldest first", () => {
    const all = [
      sc('late', { creationTimestamp: '2026-11-01T12:30:00Z' }, { app: 'api' }),
      sc('early', { creationTimestamp: '2026-11-01T12:10:00Z' }),
      sc('before-window', { creationTimestamp: '2026-11-01T09:00:00Z' }),
      {
        ...sc('mesh', { creationTimestamp: '2026-11-01T12:20:00Z' }),
        metadata: {
          name: 'mesh',
          namespace: 'istio-system',
          creationTimestamp: '2026-11-01T12:20:00Z',
        },
      } as Sidecar,
      {
        ...sc('other', {}),
        metadata: { name: 'other', namespace: 'bank', creationTimestamp: '2026-11-01T12:20:00Z' },
      } as Sidecar,
    ];
    const m = markersFor(all, 'shop', 'istio-system', T0, T0 + 3_600_000);
    expect(m.map((x) => x.name)).toEqual(['early', 'mesh', 'late']);
    expect(m[2]?.selector).toEqual({ app: 'api' });
  });
});
