/**
 * `~` exclusions through GET /api/scoping on the unscoped-mesh simulator. With its istiod at
 * 1.24.2 none is proposed and the view says why and what they would save; once istiod runs 1.31
 * the same proposals carry them, their YAML applied the way `kubectl apply` would moves every
 * governed proxy to exactly the predicted count (and to the count Istio's rules, written out in
 * istio-rules.ts, give for those egress hosts), and the saving is the one the note gave.
 */
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { GET } from '../../app/api/scoping/route';
import type { ScopingView } from '../../lib/api/scoping-view';
import type { Pod, Sidecar } from '../../lib/kube/types';
import { baseRuntimeFor } from '../../server/runtime/registry';
import { EVENT_WAIT_GUARD_MS, GATHER_GUARD_MS } from '../../test-support/deadlines';
import { activeClusters, podNamed, rawMeshOf, wiredUnscopedMesh } from './harness';
import { expectedActive } from './istio-rules';
import { workloadNameKey } from '../../lib/refs/workload-ref';
import {
  proposalExclusionBadge,
  proposalExclusionText,
  reportExclusionText,
} from '../../components/scoping/exclusions-text';
import { num } from '../../components/scoping/format';

const h = wiredUnscopedMesh('scoping-exclusions');

async function scoping(): Promise<ScopingView> {
  const res = await GET(new Request('http://meshdx.test/api/scoping?refresh=1'));
  expect(res.status).toBe(200);
  return (await res.json()) as ScopingView;
}

const withExclusions = (v: ScopingView) =>
  v.report.generated.filter((g) => g.apply && g.exclusions !== null);

describe('~ exclusions in the Scoping view, by the istiod version', () => {
  let older: ScopingView;

  it(
    'istiod 1.24.2: no exclusion in any YAML, and each proposal says what they would save',
    async () => {
      older = await scoping();
      expect(older.report.exclusions.support).toBe('unsupported');
      expect(older.report.exclusions.detail).toContain('istiod 1.24.2 is older than 1.31');
      const said = withExclusions(older);
      expect(said.length).toBeGreaterThan(0);
      for (const g of said) {
        expect(g.exclusions).toMatchObject({ proposed: false });
        expect(g.exclusions?.clustersSaved).toBeGreaterThan(0);
        expect(g.hosts.some((x) => x.startsWith('~'))).toBe(false);
        expect(g.yaml).not.toContain('~');
      }
      expect(older.report.exclusions.clustersSaved).toBe(
        said.reduce((n, g) => n + (g.exclusions?.clustersSaved ?? 0), 0),
      );
      // the screen's words carry the same figures: the view's line, each card and its badge
      const line = reportExclusionText(older.report) ?? '';
      expect(line).toContain('not proposed: istiod 1.24.2 is older than 1.31');
      expect(line).toContain(`save ${num(older.report.exclusions.clustersSaved)} more clusters`);
      for (const g of said) {
        const saved = num(g.exclusions?.clustersSaved);
        expect(proposalExclusionText(g)).toContain(`would save ${saved} more clusters`);
        expect(proposalExclusionBadge(g)).toBe(`${saved} more with 1.31 exclusions`);
      }
    },
    GATHER_GUARD_MS,
  );

  it(
    'istiod 1.31: proposed, and applying one moves its proxies to exactly the prediction',
    async () => {
      // the upgrade: istiod's pods now run pilot 1.31.0
      for (const p of h.sim.store.list<Pod>('pods')) {
        if (p.metadata.labels?.app !== 'istiod') continue;
        h.sim.store.upsert('pods', {
          ...p,
          spec: {
            ...p.spec,
            containers: p.spec.containers.map((c) =>
              c.name === 'discovery' ? { ...c, image: 'docker.io/istio/pilot:1.31.0' } : c,
            ),
          },
        });
      }
      let view: ScopingView | undefined;
      await vi.waitFor(
        async () => {
          view = await scoping();
          expect(view.report.exclusions.support).toBe('supported');
        },
        { timeout: EVENT_WAIT_GUARD_MS, interval: 200 },
      );
      if (!view) throw new Error('no view');
      expect(view.report.exclusions.detail).toBe('istiod 1.31.0');
      // what the 1.24 view said they would save is what they save now
      expect(view.report.exclusions.clustersSaved).toBe(older.report.exclusions.clustersSaved);
      const proposal = withExclusions(view).find(
        (g) => g.level === 'namespace' && g.action === 'create',
      );
      if (!proposal?.exclusions) throw new Error('no namespace Sidecar with exclusions');
      const before = older.report.generated.find(
        (g) => g.namespace === proposal.namespace && g.name === proposal.name,
      );
      expect(proposal.exclusions.proposed).toBe(true);
      expect(proposal.exclusions.clustersSaved).toBe(before?.exclusions?.clustersSaved);
      expect((before?.clustersAfter ?? 0) - proposal.clustersAfter).toBe(
        proposal.exclusions.clustersSaved,
      );
      expect(reportExclusionText(view.report)).toContain(
        `istiod 1.31.0 reads ~NAMESPACE/HOST egress-host exclusions`,
      );
      expect(proposalExclusionText(proposal)).toContain(
        `${num(proposal.exclusions.clustersSaved)} of the fewer clusters come from them`,
      );
      const egress = (parse(proposal.yaml) as Sidecar).spec.egress?.flatMap((e) => e.hosts) ?? [];
      expect(egress).toEqual(expect.arrayContaining(proposal.exclusions.hosts));

      const res = await baseRuntimeFor().transport.request(
        `/apis/networking.istio.io/v1/namespaces/${proposal.namespace}/sidecars`,
        { method: 'POST', body: JSON.stringify(parse(proposal.yaml)) },
      );
      expect(res.status).toBe(201);
      const rows = view.report.workloads
        .filter((w) => proposal.workloads.includes(workloadNameKey(w.namespace, w.name)))
        .flatMap((w) => w.proxies.map((p) => ({ ns: w.namespace, p })));
      expect(rows.length).toBe(proposal.proxies);
      let after = 0;
      for (const { ns, p } of rows) {
        const now = await activeClusters(ns, p.pod);
        expect({ pod: p.pod, active: now }).toEqual({ pod: p.pod, active: p.clusters.predicted });
        expect(now).toBe(expectedActive(podNamed(h.sim, ns, p.pod), rawMeshOf(h.sim), egress));
        after += now ?? 0;
      }
      expect(after).toBe(proposal.clustersAfter);
    },
    GATHER_GUARD_MS,
  );
});
