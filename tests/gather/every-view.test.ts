/**
 * The same figures on every view: `meshdx gather` of the simulator (demo, phantom-503) on a
 * fixed clock, then the archive opened as `meshdx open` opens it (its own API server, its
 * history store seeded from the archive's meshdx files), and each view's route asked on both
 * contexts: Overview (inventory, ambient), Timelines (and a pod's), Proxies (fleet, a proxy's
 * detail, a ztunnel's), Scoping, Incidents, Findings and the pod page. What the live view showed
 * at capture time the archive shows, card for card and row for row. What an archive cannot hold
 * is unknown there with its reason, and asserted so:
 * - Envoy's `/stats` text: a bug-report keeps `stats/prometheus`, so Scoping's envoy-stats source
 *   is unavailable on every proxy (and what Scoping and its MDX03xx findings make of traffic);
 * - whether Gateway API is installed, in an archive that lists no CRD and no object of it;
 * - how many lines a read of a log took (the kubelet's line times are not kept).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ARCHIVE_LIMITS } from '../../lib/archive/limits';
import { readArchive } from '../../lib/archive/read';
import { workloadNameKey } from '../../lib/refs/workload-ref';
import { gatherArchive } from '../../server/gather/gather';
import { resetRegistry } from '../../server/runtime/registry';
import { storeFileFor } from '../../server/runtime/runtime';
import { startSimulator } from '../../server/sim/index';
import { run } from '../../cli/commands/gather';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import {
  COMPLETENESS_ENV,
  EVENT_WAIT_GUARD_MS,
  GATHER_GUARD_MS,
} from '../../test-support/deadlines';
import { figures, views, type ViewBody, type Views } from './view-figures';

const START = new Date('2026-11-01T12:00:00Z');
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const nodeArchiveFs = {
  lstat: (p: string) => fs.promises.lstat(p),
  readdir: (p: string) => fs.promises.readdir(p),
  readFile: (p: string) => fs.promises.readFile(p),
  createReadStream: (p: string) => fs.createReadStream(p),
};

const saved = { ...process.env };
afterAll(() => {
  resetRegistry();
  process.env = saved;
});

const GATEWAY_API_UNKNOWN = /whether Gateway API is installed is unknown/;

for (const scenario of ['demo', 'phantom-503']) {
  describe(`${scenario}: gathered, then opened`, () => {
    const dir = tempDir(`every-view-${scenario}`);
    let live = {} as Views;
    let archived = {} as Views;
    let server: ChildProcess | undefined;
    let gatewayApiListed = true;

    beforeAll(async () => {
      const sim = await startSimulator({ scenario, port: 0, clock: { fixed: START } });
      const kubeconfig = path.join(dir, 'kubeconfig');
      fs.writeFileSync(kubeconfig, sim.kubeconfigYaml, { mode: 0o600 });
      const kc = new KubeConfig();
      kc.loadFromString(sim.kubeconfigYaml);
      const simContext = kc.getCurrentContext();
      const db = path.join(dir, 'db');
      fs.mkdirSync(db);
      process.env = {
        ...saved,
        ...COMPLETENESS_ENV,
        MESHDX_KUBECONFIG: kubeconfig,
        MESHDX_DB: db,
        MESHDX_AUTH: 'none',
        MESHDX_CLOCK: 'objects',
      };
      delete process.env.MESHDX_CONTEXT;
      delete process.env.MESHDX_PROMETHEUS;
      resetRegistry();
      const seen = await views(simContext, null);
      live = seen.v;
      // the window covers every log line the live views read (a shorter one cuts the logs, as
      // istioctl's --duration does)
      const archive = path.join(dir, `${scenario}.tar.gz`);
      const io = Object.assign(fakeIO(dir), { gatherer: gatherArchive });
      const history = storeFileFor(db, simContext, true);
      const code = await run(
        ['-o', archive, '--since', '2h', '--kubeconfig', kubeconfig, '--history', history],
        io,
      );
      expect(code, io.err).toBe(0);
      resetRegistry();
      await sim.close();

      // the archive served as `meshdx open` serves it: its API server a process of its own,
      // which seeds the context's history store from the archive's meshdx files
      const akc = path.join(dir, 'archive.kubeconfig');
      server = spawn(
        path.join(ROOT, 'node_modules', '.bin', 'tsx'),
        ['server/archive/main.ts', '--kubeconfig', akc, '--data-dir', db, archive],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let said = '';
      server.stdout?.on('data', (d: Buffer) => (said += d.toString()));
      server.stderr?.on('data', (d: Buffer) => (said += d.toString()));
      await vi.waitFor(
        () => {
          if (!fs.existsSync(akc)) throw new Error(`the archive is not served yet: ${said}`);
        },
        { timeout: EVENT_WAIT_GUARD_MS, interval: 100 },
      );
      expect(said).toMatch(/meshdx history: \d+ pod intervals/);
      expect(said).toMatch(/ 0 entries skipped\n/);
      expect(said).not.toMatch(/meshdx history: bug-report\//);
      const index = await readArchive(archive, DEFAULT_ARCHIVE_LIMITS, nodeArchiveFs);
      gatewayApiListed = index.objects.some(
        (o) =>
          o.kind === 'CustomResourceDefinition' ||
          (o.apiVersion ?? '').startsWith('gateway.networking.k8s.io/'),
      );
      const archiveKc = new KubeConfig();
      archiveKc.loadFromFile(akc);
      process.env.MESHDX_KUBECONFIG = akc;
      resetRegistry();
      archived = (await views(archiveKc.getCurrentContext(), seen.pick)).v;
    }, GATHER_GUARD_MS);

    afterAll(() => {
      resetRegistry();
      server?.kill('SIGTERM');
    });

    it('Overview: the same inventory and ambient cards', () => {
      const note = ['ambient.gatewaysNote'];
      expect(figures(archived.inventory, note)).toEqual(figures(live.inventory, note));
      const liveNotes = live.ambient.notes as string[];
      const notes = (archived.ambient.notes as string[]).filter(
        (n) => !GATEWAY_API_UNKNOWN.test(n),
      );
      expect(figures({ ...archived.ambient, notes })).toEqual(figures(live.ambient));
      const ambient = (archived.inventory.ambient ?? {}) as { gatewaysNote?: string | null };
      const liveAmbient = (live.inventory.ambient ?? {}) as { gatewaysNote?: string | null };
      if (gatewayApiListed) expect(ambient.gatewaysNote).toBe(liveAmbient.gatewaysNote);
      // no Gateway and no CRD in the archive: not "not installed", unknown and why
      else expect(ambient.gatewaysNote).toMatch(GATEWAY_API_UNKNOWN);
      expect(liveNotes.some((n) => GATEWAY_API_UNKNOWN.test(n))).toBe(false);
    });

    it("Timelines: every pod's verdicts, gaps and counts, and one pod's timeline", () => {
      expect((live.timelines.rows as unknown[]).length).toBeGreaterThan(5);
      expect(figures(archived.timelines)).toEqual(figures(live.timelines));
      expect(figures(archived.podTimeline)).toEqual(figures(live.podTimeline));
    });

    it("Proxies: the fleet's rows and cards, proxies' cluster tables, a ztunnel's workloads", () => {
      expect((live.fleet.rows as unknown[]).length).toBeGreaterThan(5);
      expect(figures(archived.fleet)).toEqual(figures(live.fleet));
      if (live.ztunnel) expect(figures(archived.ztunnel)).toEqual(figures(live.ztunnel));
      type Detail = {
        clusters: { used: boolean | null }[];
        usage: ViewBody;
        errors: { part: string }[];
      };
      for (const k of ['proxy0', 'proxy1', 'proxy2'] as const) {
        const l = live[k] as unknown as Detail;
        const a = archived[k] as unknown as Detail;
        // the cluster table, its counts, listeners and routes: the config dump's
        const tables = (d: Detail) =>
          figures({ ...d, clusters: d.clusters.map((c) => ({ ...c, used: 'stats' })) }, [
            'usage',
            'errors',
          ]);
        expect(tables(a), k).toEqual(tables(l));
        expect(l.errors, k).toEqual([]);
        expect(l.usage.available, k).toBe(true);
        // used or not comes from Envoy's /stats, which a bug-report does not keep: unknown, why
        expect(a.usage, k).toMatchObject({ available: false, used: null, unused: null });
        expect(a.usage.unknown, k).toMatch(/\/stats.* is not in the archive/);
        expect(
          a.errors.map((e) => e.part),
          k,
        ).toEqual(['usage']);
        expect(new Set(a.clusters.map((c) => c.used)), k).toEqual(new Set([null]));
      }
    });

    it('the pod page', () => {
      expect(figures(archived.podPage)).toEqual(figures(live.podPage));
    });

    it("Scoping: the same workloads, proxies' clusters and push health; Envoy's /stats unknown with its reason", () => {
      type Scoping = {
        report: {
          workloads: {
            namespace: string;
            name: string;
            replicas: number;
            proxies: { pod: string; measuredActive: number; clusters: { current: number } }[];
          }[];
        };
        gather: {
          sources: { source?: string; available: number; reasons: { reason: string }[] }[];
        };
        push: unknown;
      };
      const shape = (s: Scoping) =>
        s.report.workloads.map((w) => ({
          workload: workloadNameKey(w.namespace, w.name),
          replicas: w.replicas,
          proxies: w.proxies.map((p) => [p.pod, p.measuredActive, p.clusters.current]),
        }));
      const l = live.scoping as unknown as Scoping;
      const a = archived.scoping as unknown as Scoping;
      expect(shape(a)).toEqual(shape(l));
      expect(figures(a.push)).toEqual(figures(l.push));
      // the traffic source a bug-report cannot hold: Envoy's /stats text, on every proxy
      const stats = a.gather.sources[0]!;
      const proxies = l.report.workloads.reduce((n, w) => n + w.proxies.length, 0);
      expect(l.gather.sources[0]!.available).toBeGreaterThan(proxies / 2);
      expect(stats.available).toBe(0);
      expect(stats.reasons.map((r) => r.reason)).toContain('Envoy admin /stats answered 404');
      // and the other source, the access logs, is the live one
      expect(figures(a.gather.sources.slice(1))).toEqual(figures(l.gather.sources.slice(1)));
    });

    it('Incidents: the same totals, rows and sources', () => {
      const drop = ['history.source', 'chart.from', 'chart.to', 'totals.records'];
      type Src = { source: string; records: number; failing: number; problem: string | null };
      const counts = (v: ViewBody) =>
        Object.fromEntries(
          (v.sources as Src[]).map((s) => [s.source, [s.failing, s.problem === null]]),
        );
      // which clients were asked (not how: a read of the log, or the store seeded with what
      // the live view recorded), and why a client's own counts could not be read
      type Clients = {
        read: number;
        fromStore: number;
        chosen: unknown[];
        skipped: { pod?: unknown }[];
      };
      const clients = (v: ViewBody) => {
        const c = v.clients as Clients;
        return {
          asked: c.read + c.fromStore,
          chosen: figures(c.chosen),
          skipped: c.skipped.map((x) => x.pod),
        };
      };
      expect(clients(archived.incidents)).toEqual(clients(live.incidents));
      const readMechanics = [...drop, 'sources', 'clients', 'memory'];
      const l = figures(live.incidents, readMechanics) as ViewBody;
      const a = figures(archived.incidents, readMechanics) as ViewBody;
      expect(a.totals).toEqual(l.totals);
      expect(a.requests).toEqual(l.requests);
      expect(a).toEqual(l);
      // each client read shows the same failures; a read's line count is not the same figure
      // (the kubelet's line times are not in the archive)
      const lc = counts(live.incidents);
      for (const [src, c] of Object.entries(counts(archived.incidents)))
        expect(c, src).toEqual(lc[src] ?? [0, true]);
      for (const src of Object.keys(lc)) expect(counts(archived.incidents)[src], src).toBeDefined();
    });

    it("Findings: the same findings, but for Scoping's, which rest on traffic", () => {
      type Finding = { code: string; subject: unknown; severity: string };
      const notScoping = (v: ViewBody) =>
        figures((v.findings as Finding[]).filter((f) => !f.code.startsWith('MDX03')));
      expect(notScoping(archived.findings)).toEqual(notScoping(live.findings));
      type Source = { name: string; ok: boolean; detail: string };
      // a log's "N proxy lines" (its lines that are no access record) is no figure of the
      // archive: the simulator dates its history lines when it starts, a kubelet when they are
      // written, and the archive by the time they print
      const sources = (v: ViewBody) =>
        (v.sources as Source[])
          .filter((s) => !['scoping analysis', 'gateways', 'rule inputs'].includes(s.name))
          .map((s) => ({ ...s, detail: s.detail.replace(/, \d+ proxy lines$/, '') }));
      expect(sources(archived.findings)).toEqual(sources(live.findings));
      const gateways = (v: ViewBody) => (v.sources as Source[]).find((s) => s.name === 'gateways');
      if (gatewayApiListed) expect(gateways(archived.findings)).toEqual(gateways(live.findings));
      else expect(gateways(archived.findings)?.detail).toMatch(GATEWAY_API_UNKNOWN);
    });
  });
}
