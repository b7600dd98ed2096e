/**
 * One bad object never breaks a view: a Pod without spec (as an old or corrupted object in
 * etcd would be served) is left out of Overview, Timelines, Proxies, Scoping and Incidents,
 * every other pod still shows, and Findings names it (MDX0002).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asMeshdx } from '../../server/auth/identity';
import { FindingsReportSchema } from '../../lib/api/findings';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { InventorySchema, PodListSchema } from '../../lib/api/inventory';
import { TimelineFleetSchema } from '../../lib/api/timelines';
import type { Pod } from '../../lib/kube/types';
import type { ClusterRuntime } from '../../server/runtime/runtime';
import { incidentsOf } from '../../server/screens/incidents/incidents';
import { inventoryOf, podListOf } from '../../server/screens/overview/inventory';
import { fleetScan } from '../../server/screens/proxies/fleet';
import { timelineFleetOf } from '../../server/screens/timelines/timelines';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { runtimeOn } from '../../test-support/simulator';

let sim: RunningSimulator;
let rt: ClusterRuntime;
let pods: number;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'startup-race',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  pods = sim.store.list<Pod>('pods').length;
  // straight into the simulator's store, as a corrupted object would sit in etcd
  sim.store.upsert('pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'no-spec', namespace: 'default', uid: 'bad-1' },
  } as unknown as Pod);
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  rt = runtimeOn(kc, { settings: { MESHDX_CLOCK: 'objects' } }).start();
}, 60_000);

afterAll(async () => {
  rt?.stop();
  await sim?.close();
});

describe('a Pod without spec', () => {
  it('Overview shows every other pod', async () => {
    const inv = InventorySchema.parse(await inventoryOf(rt));
    expect(inv.totals.pods).toBe(pods);
    expect(inv).not.toHaveProperty('pods');
    const list = PodListSchema.parse(await podListOf(rt, { limit: 5_000 }));
    expect(list.total).toBe(pods);
    expect(list.pods.some((p) => p.name === 'no-spec')).toBe(false);
  });

  it('Timelines, Proxies and Incidents answer', async () => {
    const fleet = TimelineFleetSchema.parse(await timelineFleetOf(rt));
    expect(fleet.rows.length).toBeGreaterThan(0);
    expect(fleet.rows.some((r) => r.name === 'no-spec')).toBe(false);
    expect(rt.pods.currentStatus.rejected).toBe(1);
    const proxies = await fleetScan(rt).promise;
    expect(proxies.rows.length).toBeGreaterThan(0);
    const incidents = IncidentsViewSchema.parse(await incidentsOf(rt, {}));
    expect(incidents.history.source).toContain('SQLite history store');
  });

  it('Findings names it as MDX0004 and still carries every analysis', async () => {
    const { getWholeFindings } = await import('../../server/screens/findings/findings');
    const { resetRegistry } = await import('../../server/runtime/registry');
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-malformed-views-'));
    const saved = { ...process.env };
    try {
      fs.writeFileSync(path.join(dir, 'kubeconfig'), sim.kubeconfigYaml);
      process.env.MESHDX_KUBECONFIG = path.join(dir, 'kubeconfig');
      process.env.MESHDX_DB = ':memory:';
      resetRegistry();
      const report = FindingsReportSchema.parse(await getWholeFindings(asMeshdx(null)));
      // no spec but labels: kept for selectors, with a note saying what it is left out of
      const noted = report.findings.filter((f) => f.code === 'MDX0004');
      expect(noted.map((f) => f.subject.name)).toContain('no-spec');
      expect(report.sources?.filter((s) => !s.ok)).toEqual([]);
    } finally {
      resetRegistry();
      process.env = saved;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
