/**
 * The proof: on the unscoped-mesh simulator, the Scoping report's generated Sidecar for one
 * namespace, created the way `kubectl apply` would, moves every affected proxy's
 * envoy_cluster_manager_active_clusters to exactly the predicted number, and leaves the other
 * namespaces' proxies where they were. Every number is also checked against a count worked out
 * here from the raw objects (istio-rules.ts), so neither meshdx's model (lib/scoping) nor the
 * simulator's (server/sim/mesh/sidecar-scope.ts) is trusted on its own word.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ScopingView } from '../../lib/api/scoping-view';
import type { Sidecar } from '../../lib/kube/types';

import { computeScoping, scopingDeps } from '../../server/screens/scoping/scoping';
import { baseRuntimeFor } from '../../server/runtime/registry';
import { activeClusters, podNamed, rawMeshOf, wiredUnscopedMesh } from './harness';
import { GATHER_GUARD_MS } from '../../test-support/deadlines';
import { expectedActive } from './istio-rules';

const h = wiredUnscopedMesh('scoping');
let view: ScopingView;

beforeAll(async () => {
  view = await computeScoping(scopingDeps(baseRuntimeFor()));
}, GATHER_GUARD_MS);

describe('apply the generated Sidecar and verify (unscoped-mesh simulator)', () => {
  it('measured every proxy and observed every workload through Envoy stats', () => {
    const { report, gather } = view;
    expect(gather.unreachableTotal).toBe(0);
    expect(report.totals.proxiesMeasured).toBe(report.totals.proxies);
    const stats = gather.sources.find((s) => s.source === 'envoy-stats');
    expect(stats?.available).toBe(gather.proxies);
    expect(report.workloads.every((w) => w.observed)).toBe(true);
  });

  it('names the unscoped namespaces and proposes a Sidecar that saves clusters', () => {
    const unscoped = view.report.namespaces.filter((n) => n.defaultSidecar.source !== 'namespace');
    expect(unscoped.length).toBeGreaterThan(0);
    const proposal = view.report.generated.find((g) => g.level === 'namespace' && g.apply);
    expect(proposal).toBeDefined();
    expect(proposal!.clustersAfter).toBeLessThan(proposal!.clustersBefore);
  });

  it('moves the affected proxies to exactly the predicted counts, and no others', async () => {
    const { report } = view;
    const proposal = report.generated.find(
      (g) => g.level === 'namespace' && g.apply && g.action === 'create',
    );
    if (!proposal) throw new Error('no namespace Sidecar to create in the report');
    const ns = proposal.namespace;
    const rows = report.workloads.flatMap((w) => w.proxies.map((p) => ({ w, p })));
    const inNs = rows.filter((r) => r.w.namespace === ns);
    const others = rows.filter((r) => r.w.namespace !== ns).slice(0, 10);
    expect(inNs.length).toBe(proposal.proxies);
    // before: what the report measured is what the proxies report
    for (const { w, p } of inNs) {
      const independent = expectedActive(podNamed(h.sim, w.namespace, p.pod), rawMeshOf(h.sim));
      expect(await activeClusters(w.namespace, p.pod)).toBe(independent);
      expect(p.measuredActive).toBe(independent);
    }
    const egress = (parse(proposal.yaml) as Sidecar).spec.egress?.flatMap((e) => e.hosts) ?? [];
    expect(egress).toEqual(expect.arrayContaining(['./*', 'istio-system/*']));

    const doc: unknown = parse(proposal.yaml);
    const t = baseRuntimeFor().transport;
    const res = await t.request(`/apis/networking.istio.io/v1/namespaces/${ns}/sidecars`, {
      method: 'POST',
      body: JSON.stringify(doc),
    });
    expect(res.status).toBe(201);

    let after = 0;
    for (const { w, p } of inNs) {
      const now = await activeClusters(w.namespace, p.pod);
      expect({ pod: p.pod, active: now }).toEqual({ pod: p.pod, active: p.clusters.predicted });
      // ... and that number is what Istio's rules give for the applied egress hosts
      expect(now).toBe(
        expectedActive(podNamed(h.sim, w.namespace, p.pod), rawMeshOf(h.sim), egress),
      );
      expect(now).toBe(expectedActive(podNamed(h.sim, w.namespace, p.pod), rawMeshOf(h.sim)));
      after += now ?? 0;
    }
    expect(after).toBe(proposal.clustersAfter);
    expect(after).toBeLessThan(proposal.clustersBefore);
    for (const { w, p } of others)
      expect(await activeClusters(w.namespace, p.pod)).toBe(p.measuredActive);
  });

  it(
    'a workloadSelector Sidecar moves only the proxies it selects, as Istio and meshdx say',
    async () => {
      const target =
        view.report.namespaces.find(
          (n) =>
            n.defaultSidecar.source === 'none' &&
            !view.report.generated.some((g) => g.namespace === n.name && g.level === 'namespace'),
        ) ??
        view.report.namespaces.find((n) => n.defaultSidecar.source === 'none' && n.workloads > 1);
      if (!target) throw new Error('no unscoped namespace left');
      const inNs = view.report.workloads.filter(
        (w) => w.namespace === target.name && w.proxies.length > 0,
      );
      const [chosen, ...rest] = inNs;
      if (!chosen || rest.length === 0) throw new Error(`${target.name}: need two workloads`);
      const app = podNamed(h.sim, chosen.namespace, chosen.proxies[0]!.pod).metadata.labels?.app;
      expect(app).toBeDefined();
      const hosts = ['./*', 'istio-system/*'];
      const sidecar: Sidecar = {
        apiVersion: 'networking.istio.io/v1',
        kind: 'Sidecar',
        metadata: { name: `only-${chosen.name}`, namespace: target.name },
        spec: { workloadSelector: { labels: { app: app! } }, egress: [{ hosts }] },
      };
      const res = await baseRuntimeFor().transport.request(
        `/apis/networking.istio.io/v1/namespaces/${target.name}/sidecars`,
        { method: 'POST', body: JSON.stringify(sidecar) },
      );
      expect(res.status).toBe(201);

      const selected = chosen.proxies.filter(
        (p) => podNamed(h.sim, chosen.namespace, p.pod).metadata.labels?.app === app,
      );
      expect(selected.length).toBe(chosen.proxies.length);
      for (const p of selected) {
        const pod = podNamed(h.sim, chosen.namespace, p.pod);
        const now = await activeClusters(chosen.namespace, p.pod);
        expect(now).toBe(expectedActive(pod, rawMeshOf(h.sim), hosts));
        expect(now).toBe(expectedActive(pod, rawMeshOf(h.sim)));
        expect(now).toBeLessThan(p.measuredActive ?? 0);
      }
      for (const w of rest)
        for (const p of w.proxies)
          expect(await activeClusters(w.namespace, p.pod)).toBe(p.measuredActive);

      // meshdx, asked again, sees the Sidecar and models exactly what the proxies now report
      const again = await computeScoping(scopingDeps(baseRuntimeFor()));
      const row = again.report.workloads.find(
        (w) => w.namespace === chosen.namespace && w.name === chosen.name,
      );
      expect(row?.sidecar).toMatchObject({ source: 'workload', name: sidecar.metadata.name });
      for (const p of row?.proxies ?? [])
        expect({ pod: p.pod, modelled: p.clusters.modelled }).toEqual({
          pod: p.pod,
          modelled: p.measuredActive,
        });
    },
    GATHER_GUARD_MS,
  );
});
