import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { GET as clusterGet } from '../../app/api/cluster/route';
import { GET as contextsGet } from '../../app/api/contexts/route';
import { GET as findingsGet } from '../../app/api/findings/route';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { GET as inventoryGet } from '../../app/api/inventory/route';
import { GET as proxyGet } from '../../app/api/proxies/[namespace]/[name]/route';
import { GET as fleetGet } from '../../app/api/proxies/fleet/route';
import { GET as scopingGet } from '../../app/api/scoping/route';
import { GET as timelinesGet } from '../../app/api/timelines/route';
import { archiveKubeconfig, openArchives, type OpenedArchive } from '../../server/archive/open';
import { resetRegistry } from '../../server/runtime/registry';
import { archivePath } from '../../lib/archive/layout';
import { podPath } from '../../lib/refs/pod-ref';
import { readFixture } from '../../test-support/fixtures';
import {
  ARCHIVE_PROXIES,
  bugReportEntries,
  CAPTURED_AT,
  GATEWAY,
  GATEWAY_LOG,
} from '../data/archive/bug-report';
import { packTarGz } from '../data/archive/pack';

// An archive in istioctl's layout, of real fixture files (tests/data/archive/bug-report.ts),
// opened as `meshdx open` opens it: its own loopback API server, a kubeconfig context, and the
// dashboard's route handlers on it through the same runtime a live cluster uses.
const saved = { ...process.env };
let dir = '';
let opened: OpenedArchive[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-open-'));
  const file = path.join(dir, 'bug-report.tar.gz');
  fs.writeFileSync(file, await packTarGz(bugReportEntries()));
  // the same archive unpacked, made with --skip-cluster-dump (no k8s-resources, events, crs)
  const folder = path.join(dir, 'unpacked-skip');
  for (const e of bugReportEntries()) {
    if (/cluster\/(events|crs|k8s-resources)$/.test(e.name)) continue;
    const p = path.join(folder, ...e.name.split('/'));
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, e.body ?? '');
  }
  opened = await openArchives([file, folder]);
  fs.writeFileSync(path.join(dir, 'kubeconfig'), archiveKubeconfig(opened), { mode: 0o600 });
  process.env = {
    ...saved,
    MESHDX_KUBECONFIG: path.join(dir, 'kubeconfig'),
    MESHDX_DB: ':memory:',
    MESHDX_AUTH: 'none',
  };
  delete process.env.MESHDX_CONTEXT;
  delete process.env.MESHDX_PROMETHEUS;
  resetRegistry();
}, 60_000);

afterAll(async () => {
  resetRegistry();
  process.env = saved;
  await Promise.all(opened.map((o) => o.server.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

type Route = (req: Request) => Response | Promise<Response>;
async function get<T>(route: Route, p: string): Promise<T> {
  const res = await route(new Request(`http://127.0.0.1:3000${p}`));
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
  return body;
}

const details = ARCHIVE_PROXIES[0];

describe('an istioctl bug-report archive opened as a cluster', () => {
  it('is a context beside the others, and its header says archive, capture time and what it lacks', async () => {
    const ctx = await get<{ default: string; contexts: { name: string }[] }>(
      contextsGet,
      '/api/contexts',
    );
    expect(ctx.contexts.map((c) => c.name)).toEqual([
      expect.stringMatching(/^archive-bug-report-[0-9a-f]{6}$/),
      expect.stringMatching(/^archive-unpacked-skip-[0-9a-f]{6}$/),
    ]);
    expect(ctx.contexts.map((c) => c.name)).toEqual(opened.map((o) => o.context));
    const info = await get<{
      reachable: boolean;
      archive: {
        name: string;
        capturedAt: string;
        capturedHow: string;
        missing: { part: string; reason: string }[];
      };
    }>(clusterGet, '/api/cluster');
    expect(info.reachable).toBe(true);
    expect(info.archive.name).toBe('bug-report.tar.gz');
    expect(info.archive.capturedAt).toBe(CAPTURED_AT.toISOString());
    expect(info.archive.capturedHow).toMatch(/newest file time/);
    expect(info.archive.missing.map((m) => m.part)).toContain(
      archivePath('proxies', details.namespace, details.pod, 'stats/prometheus'),
    );
  });

  it('Overview: the pods and Istio resources of the archive, counted from its files', async () => {
    const inv = await get<{
      totals: {
        pods: number;
        meshedPods: number;
        virtualServices: number;
        destinationRules: number;
      };
      generatedAt: string;
    }>(inventoryGet, '/api/inventory');
    const kinds = (f: string) =>
      parseAllDocuments(readFixture('istio_config', 'pilot_testdata_config', f)).map(
        (d) => (d.toJS() as { kind?: string } | null)?.kind,
      );
    expect(inv.totals.pods).toBe(5);
    expect(inv.totals.meshedPods).toBe(4);
    expect(inv.totals.virtualServices).toBe(
      kinds('virtual-service-all.yaml').filter((k) => k === 'VirtualService').length,
    );
    expect(inv.totals.destinationRules).toBe(
      kinds('destination-rule-all.yaml').filter((k) => k === 'DestinationRule').length,
    );
    // the view's "now" is the capture's
    expect(Math.abs(Date.parse(inv.generatedAt) - CAPTURED_AT.getTime())).toBeLessThan(60_000);
  });

  it("Proxies: a proxy's clusters are its config dump's, read over port-forward as from Envoy admin", async () => {
    const dump = JSON.parse(readFixture('config_dump', details.dump)) as {
      configs: Record<string, unknown[]>[];
    };
    const section =
      dump.configs.find((c) => String(c['@type']).endsWith('ClustersConfigDump')) ?? {};
    const expected =
      (section.dynamicActiveClusters?.length ?? 0) + (section.staticClusters?.length ?? 0);
    const res = await proxyGet(
      new Request(
        `http://127.0.0.1:3000/api/proxies/${podPath({ namespace: details.namespace, name: details.pod })}`,
      ),
      {
        params: Promise.resolve({ namespace: details.namespace, name: details.pod }),
      },
    );
    const body = (await res.json()) as { clusters: unknown[]; errors: string[] };
    expect(res.status).toBe(200);
    expect(body.clusters).toHaveLength(expected);
    // the usage counters come from Envoy's /stats, which a bug-report does not keep: said so
    expect(JSON.stringify(body)).toMatch(/not in the archive/);
  });

  it('Proxies fleet: figures a bug-report lacks are unknown with the reason, never 0', async () => {
    const fleet = await get<{
      rows: {
        name: string;
        activeClusters: number | null;
        status: string;
        reason: string | null;
      }[];
    }>(fleetGet, '/api/proxies/fleet');
    const row = fleet.rows.find((r) => r.name === details.pod);
    expect(row?.activeClusters).toBeNull();
    expect(JSON.stringify(fleet)).toMatch(/stats\/prometheus/);
  });

  it('Incidents: the access lines of each istio-proxy.log are read through pods/log', async () => {
    const inc = await get<{ sources: { source: string; lines: number; problem: string | null }[] }>(
      incidentsGet,
      '/api/incidents',
    );
    const gw = inc.sources.find((s) => s.source.endsWith(GATEWAY.pod));
    expect(gw?.lines).toBe(GATEWAY_LOG.trimEnd().split('\n').length);
    const sidecar = inc.sources.find((s) => s.source.endsWith(details.pod));
    expect(sidecar?.problem).toMatch(/holds no istio-proxy log/);
  });

  it('Timelines, Findings and Scoping answer on the archive', async () => {
    const tl = await get<{ rows: { name: string; phase: string; startedAt: string | null }[] }>(
      timelinesGet,
      '/api/timelines',
    );
    // the pod as the archive holds it: running since ten minutes before the capture
    expect(tl.rows.find((r) => r.name === details.pod)).toMatchObject({
      phase: 'Running',
      startedAt: new Date(CAPTURED_AT.getTime() - 600_000).toISOString(),
    });
    // the archive's own istioctl analyze output, beside the findings once they are whole
    const f = await vi.waitFor(
      async () => {
        const r = await get<{
          istioctl?: { source: string; notClaimed: { code: string }[]; agreed: unknown[] };
          istiod?: { releases: unknown[]; unknown: string | null };
        }>(findingsGet, '/api/findings');
        if (!r.istioctl) throw new Error('no istioctl comparison yet');
        // this archive holds no istiod pod: the findings are judged by no Istio version
        expect(r.istiod).toMatchObject({ releases: [] });
        expect(r.istiod?.unknown).toMatch(/^no istiod Pod or Deployment among the objects read/);
        return r.istioctl;
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(f.source).toMatch(/analyze/);
    // its IST0107 and IST0102 are codes meshdx checks too: compared, none left apart
    expect(f.notClaimed.map((m) => m.code)).toEqual([]);
    await get(scopingGet, '/api/scoping');
  });

  it('an archive without events or CRs answers those as unknown with the reason, side by side with the other', async () => {
    const q = `?context=${opened[1]?.context ?? ''}`;
    const info = await get<{ archive: { format: string; missing: { part: string }[] } }>(
      clusterGet,
      `/api/cluster${q}`,
    );
    expect(info.archive.format).toBe('folder');
    expect(info.archive.missing.map((m) => m.part)).toEqual(
      expect.arrayContaining(['cluster/events', 'cluster/crs']),
    );
    const res = await inventoryGet(new Request(`http://127.0.0.1:3000/api/inventory${q}`));
    const text = await res.text();
    // the archive's API server answers 503 naming the part and why; the view passes that on
    expect(res.status, text).toBe(502);
    // whichever list fails first names its part: the Istio resources or the pods and services
    expect(text).toMatch(/cluster\/(crs|k8s-resources) not in the archive/);
    expect(text).toMatch(/--skip-cluster-dump/);
  });
});
