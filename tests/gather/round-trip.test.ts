/**
 * The round trip an incident takes: `meshdx gather` of the phantom-503 simulator while meshdx
 * records it, the simulated pods rolling on after, then the archive opened as `meshdx open`
 * opens it (its own API server, its history seeded from the archive's meshdx files): the
 * archive's Incidents shows the failures the live view showed at capture time, attributed to
 * the same pods, though those pods are gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import type { Pod } from '../../lib/kube/types';
import { archiveKubeconfig, openArchives, type OpenedArchive } from '../../server/archive/open';
import { gatherArchive } from '../../server/gather/gather';
import { archiveGatherExtras, seedHistoryStore } from '../../server/gather/seed';
import type { ClusterRuntime } from '../../server/runtime/runtime';
import { incidentsOf } from '../../server/screens/incidents/incidents';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { run } from '../../cli/commands/gather';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { runtimeOn } from '../../test-support/simulator';

const START = new Date('2026-11-01T12:00:00Z');
const dir = tempDir('gather-round-trip');
let sim: RunningSimulator;
let live: ClusterRuntime;
let liveView: IncidentsView;
let opened: OpenedArchive[] = [];
let fromArchive: ClusterRuntime | undefined;
let archiveView: IncidentsView;
let seeded: ReturnType<typeof seedHistoryStore>;

/** What a row of the Incidents table says, as a comparable key. */
const rowKey = (r: IncidentsView['requests'][number]) =>
  JSON.stringify([r.source, r.time, r.code, r.upstreamIp, r.pod?.uid ?? null, r.state]);

beforeAll(async () => {
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
  const liveStore = path.join(dir, 'live.sqlite');
  live = runtimeOn(kc, { storeFile: liveStore, settings: { MESHDX_CLOCK: 'objects' } }).start();
  await live.pods.whenListed();
  await live.recorder.ready;
  for (let i = 0; i < 60; i++) {
    sim.clock.advance(2_000);
    await new Promise((r) => setTimeout(r, 20));
  }
  await vi.waitFor(
    () => {
      if (live.store.intervals().filter((iv) => iv.goneAt !== null).length < 3)
        throw new Error('the rollout has not removed three pods yet');
    },
    { timeout: 20_000 },
  );
  liveView = IncidentsViewSchema.parse(await incidentsOf(live, { namespace: 'shop' }));
  const archive = path.join(dir, 'incident.tar.gz');
  const io = Object.assign(fakeIO(dir), { gatherer: gatherArchive });
  const code = await run(['-o', archive, '--kubeconfig', kubeconfig, '--history', liveStore], io);
  expect(code, io.err).toBe(0);
  live.stop();
  await sim.close();

  opened = await openArchives([archive]);
  const archiveKc = path.join(dir, 'archive.kubeconfig');
  fs.writeFileSync(archiveKc, archiveKubeconfig(opened), { mode: 0o600 });
  const archiveStore = path.join(dir, 'archive.sqlite');
  const extras = await archiveGatherExtras(opened[0]!.server.index);
  expect(extras.problems).toEqual([]);
  seeded = seedHistoryStore(archiveStore, extras);
  const akc = new KubeConfig();
  akc.loadFromFile(archiveKc);
  fromArchive = runtimeOn(akc, {
    storeFile: archiveStore,
    settings: { MESHDX_CLOCK: 'objects' },
  }).start();
  await fromArchive.pods.whenListed();
  await fromArchive.recorder.ready;
  archiveView = IncidentsViewSchema.parse(await incidentsOf(fromArchive, { namespace: 'shop' }));
}, 180_000);

afterAll(async () => {
  fromArchive?.stop();
  await Promise.all(opened.map((o) => o.server.close()));
});

describe('gather, then open: the same incident', () => {
  it('seeds the archive context with every recorded failure and pod interval', () => {
    expect(seeded.failures).toBeGreaterThan(5);
    expect(seeded.intervals).toBeGreaterThan(3);
    expect(seeded.duplicates).toBe(0);
  });

  it("shows the live view's failures, attributed to the same pods in the same states", () => {
    expect(liveView.totals.shown).toBeGreaterThan(5);
    expect(archiveView.totals.shown).toBe(liveView.totals.shown);
    expect(archiveView.totals.byState).toEqual(liveView.totals.byState);
    expect(archiveView.requests.map(rowKey).sort()).toEqual(liveView.requests.map(rowKey).sort());
    // the phantoms' pods are gone: no pod the archive serves as live holds them
    const served = new Set(
      (opened[0]?.server.index.objects ?? [])
        .filter((o) => (o as { kind?: string }).kind === 'Pod')
        .map((o) => (o as Pod).metadata.uid),
    );
    const phantoms = archiveView.requests.filter((r) => r.state === 'terminated');
    expect(phantoms.length).toBeGreaterThan(0);
    for (const r of phantoms) expect(served.has(r.pod?.uid ?? '')).toBe(false);
  });
});
