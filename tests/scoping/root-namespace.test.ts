/**
 * A mesh whose root namespace is not istiod's: the `istio` ConfigMap says
 * `rootNamespace: mesh-root`, and a Sidecar without selector there scopes every namespace that
 * has none of its own. meshdx reads the root namespace from the mesh config (not from where
 * istiod runs): Overview, Proxies and Scoping agree with the proxies' own cluster counts,
 * which the simulator derives from the same ConfigMap, and with a count worked out here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import type { ConfigMap, Pod, Sidecar } from '../../lib/kube/types';
import { inventoryOf } from '../../server/screens/overview/inventory';
import { scanFleet } from '../../server/screens/proxies/scan';
import { scanDeps } from '../../server/screens/proxies/fleet';
import { computeScoping, scopingDeps } from '../../server/screens/scoping/scoping';
import { getWholeFindings } from '../../server/screens/findings/findings';
import { baseRuntimeFor } from '../../server/runtime/registry';
import { podProxy, sidecarScopes } from '../../lib/dataplane/proxy-container';
import { rawMeshOf, wiredUnscopedMesh } from './harness';
import { expectedActive } from './istio-rules';
import { podKeyOfObject } from '../../lib/refs/pod-ref';

const ROOT = 'mesh-root';
const h = wiredUnscopedMesh('root-ns');

beforeAll(() => {
  const { store } = h.sim;
  const cm = store
    .list<ConfigMap>('configmaps')
    .find((c) => c.metadata.name === 'istio' && c.metadata.namespace === 'istio-system');
  if (!cm?.data?.mesh) throw new Error('the simulator has no istio ConfigMap');
  expect(cm.data.mesh).toContain('rootNamespace: istio-system');
  store.upsert('configmaps', {
    ...cm,
    data: {
      ...cm.data,
      mesh: cm.data.mesh.replace('rootNamespace: istio-system', `rootNamespace: ${ROOT}`),
    },
  });
  store.upsert('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ROOT } });
  const meshWide: Sidecar = {
    apiVersion: 'networking.istio.io/v1',
    kind: 'Sidecar',
    metadata: { name: 'default', namespace: ROOT },
    spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
  };
  store.upsert('sidecars', meshWide);
});

/** Sidecar proxies of namespaces without a Sidecar of their own. */
function coveredByRoot(): Pod[] {
  const own = new Set(
    h.sim.store
      .list<Sidecar>('sidecars')
      .filter((s) => s.metadata.namespace !== ROOT)
      .map((s) => s.metadata.namespace),
  );
  return h.sim.store.list<Pod>('pods').filter((p) => {
    const proxy = podProxy(p);
    return (
      proxy !== null &&
      sidecarScopes(proxy.placement) &&
      p.status?.phase === 'Running' &&
      !own.has(p.metadata.namespace)
    );
  });
}

describe('the root namespace comes from the mesh config', () => {
  it('is the ConfigMap’s rootNamespace, and the Overview says so', async () => {
    const rt = baseRuntimeFor();
    expect(await rt.rootNamespace()).toBe(ROOT);
    const inv = await inventoryOf(rt);
    expect(inv.rootNamespace).toBe(ROOT);
    expect(inv.namespaces.find((n) => n.name === ROOT)?.defaultSidecar).toBe(true);
  });

  it('Proxies gives the root Sidecar to the proxies it scopes, at the counts they report', async () => {
    const pods = coveredByRoot();
    expect(pods.length).toBeGreaterThan(3);
    const fleet = await scanFleet(scanDeps(baseRuntimeFor()));
    const mesh = { ...rawMeshOf(h.sim, false), rootNamespace: ROOT };
    for (const pod of pods) {
      const key = podKeyOfObject(pod);
      const row = fleet.rows.find((r) => r.key === key);
      expect(row?.sidecar, key).toEqual({ namespace: ROOT, name: 'default', source: 'root' });
      expect(row?.activeClusters, key).toBe(expectedActive(pod, mesh));
    }
    // a mesh-wide Sidecar leaves no sidecar unscoped
    expect(fleet.rows.filter((r) => r.sidecar === null && sidecarScopes(r.placement))).toEqual([]);
  });

  it('Scoping takes those namespaces as covered by the root default', async () => {
    const view = await computeScoping(scopingDeps(baseRuntimeFor()));
    const covered = new Set(coveredByRoot().map((p) => p.metadata.namespace));
    const rows = view.report.namespaces.filter((n) => covered.has(n.name));
    expect(rows.length).toBeGreaterThan(0);
    for (const n of rows)
      expect(n.defaultSidecar, n.name).toMatchObject({ source: 'root', namespace: ROOT });
  });

  it('Findings asks no namespace the root Sidecar covers for a default Sidecar (MDX0301)', async () => {
    const report = await getWholeFindings(asMeshdx(null));
    const covered = new Set(coveredByRoot().map((p) => p.metadata.namespace));
    expect(covered.size).toBeGreaterThan(0);
    const asked = report.findings.filter(
      (f) => f.code === 'MDX0301' && covered.has(f.subject.name),
    );
    expect(asked).toEqual([]);
  });
});
