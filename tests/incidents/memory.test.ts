/**
 * Incident memory on the simulator, through meshdx's route handler and registry as the server
 * makes them: a fixed window of the phantom-503 story is opened with GET /api/incidents, the
 * client Deployment is restarted with real kubectl (`kubectl rollout restart`), and once its old
 * pods are gone the same URL answers the same failing count and attributed rows, from the store.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { GET as healthGet } from '../../app/api/health/route';
import { POST as uploadPost } from '../../app/api/incidents/upload/route';
import { logLine } from '../data/incidents/logs';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import type { Pod } from '../../lib/kube/types';
import { runningRuntimes } from '../../server/runtime/registry';
import type { RunningSimulator } from '../../server/sim/index';
import { runtimeOnSimulator, type SimRuntime } from '../../test-support/sim-runtime';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';
import { EVENT_WAIT_GUARD_MS, CHILD_PROCESS_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the incident memory test (it restarts the client Deployment with kubectl)');

const exec = promisify(execFile);
const START = new Date('2026-11-01T12:00:00Z');
let on: SimRuntime;
let sim: RunningSimulator;
let kubeconfig: string;
let dir: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => T | null | undefined): Promise<T> {
  const end = Date.now() + EVENT_WAIT_GUARD_MS;
  for (;;) {
    const v = f();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Moves the simulated clock in steps, letting the watches keep up. */
async function advance(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    sim.clock.advance(1000);
    await sleep(10);
  }
}

async function kubectl(...args: string[]): Promise<string> {
  const base = ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'cache')];
  return (await exec(KUBECTL, [...base, ...args], { timeout: CHILD_PROCESS_GUARD_MS })).stdout;
}

async function open(url: string): Promise<IncidentsView> {
  const res = await incidentsGet(new Request(url));
  expect(res.status, await res.clone().text()).toBe(200);
  return IncidentsViewSchema.parse(await res.json());
}

const checkout = () =>
  (sim.store.list('pods') as Pod[]).filter((p) => p.metadata.labels?.app === 'checkout');

beforeAll(async () => {
  on = await runtimeOnSimulator({
    scenario: 'phantom-503',
    clock: { fixed: START },
    env: { MESHDX_CLOCK: 'objects' },
  });
  ({ sim, kubeconfig, dir } = on);
});

afterAll(() => on?.close());

describe('incident memory', () => {
  it('answers a fixed window the same after the client pods are rolled and gone, from the store', async () => {
    const from = new Date(START.getTime() - 10 * 60_000).toISOString();
    const to = new Date(START.getTime() + 40_000).toISOString();
    const url = `http://meshdx.test/api/incidents?namespace=shop&from=${from}&to=${to}`;
    // meshdx watches from the start: the first answer starts the runtime
    await open(url);
    const [rt] = runningRuntimes();
    if (!rt) throw new Error('the route started no runtime');
    await rt.recorder.ready;
    // the story's payments rollout starts 20 s in: its 503s are in the checkout proxies' logs
    await advance(45_000);
    const first = await open(url);
    const oldClients = checkout().map((p) => `shop/${p.metadata.name}`);
    expect(oldClients).toHaveLength(2);
    expect(first.totals.shown).toBeGreaterThan(0);
    expect(first.memory?.readNow).toBeGreaterThan(0);
    // the Clients card's heading and the memory sentence show one figure
    expect(first.clients.read).toBe(first.memory?.readNow);
    expect(first.clients.read + first.clients.fromStore).toBe(first.clients.chosen.length);
    expect(first.memory?.failing).toBe(first.totals.failing);
    expect(new Set(first.requests.map((r) => r.source))).toEqual(new Set(oldClients));
    // attributed to the payments pods that were going (the phantom 503s), with how long each client kept them
    expect(first.totals.byState.terminating ?? 0).toBeGreaterThan(0);
    expect(first.lag.rows.length).toBeGreaterThan(0);

    // the same lines read again are the same records
    const records = rt.store.failures.retention().records;
    const again = await open(url);
    expect(rt.store.failures.retention().records).toBe(records);
    expect(again.totals.shown).toBe(first.totals.shown);
    // nothing read again: the store covered every chosen client, and both figures say so
    expect(again.memory?.readNow).toBe(0);
    expect(again.clients.read).toBe(0);
    expect(again.clients.fromStore).toBe(again.clients.chosen.length);

    expect(await kubectl('rollout', 'restart', 'deployment/checkout', '-n', 'shop')).toContain(
      'deployment.apps/checkout restarted',
    );
    await until('a new checkout ReplicaSet', () =>
      sim.store.list('replicasets').filter((r) => r.metadata.labels?.app === 'checkout').length ===
      2
        ? true
        : null,
    );
    await advance(90_000);
    await until('the old checkout pods to be gone', () =>
      checkout().some((p) => oldClients.includes(`shop/${p.metadata.name}`)) ? null : true,
    );
    await until('meshdx to record them gone', () =>
      oldClients.every((k) => {
        const [ns, name] = k.split('/') as [string, string];
        return rt.store.podSnapshot(ns, name)?.deletedAt != null;
      })
        ? true
        : null,
    );

    const later = await open(url);
    expect(later.totals.failing).toBe(first.totals.failing);
    expect(later.totals.shown).toBe(first.totals.shown);
    const rows = (v: IncidentsView) =>
      v.requests
        .map((r) => [r.source, r.time, r.upstreamIp, r.pod?.uid ?? null, r.state].join(' '))
        .sort();
    expect(rows(later)).toEqual(rows(first));
    expect(later.lag).toEqual(first.lag);
    // the old clients were answered from the store alone, their logs not read again
    expect(later.sources.map((s) => s.source)).not.toEqual(expect.arrayContaining(oldClients));
    expect(later.memory?.goneUnread).toEqual([]);
    expect(later.memory?.text).toMatch(
      new RegExp(
        `^${later.totals.failing} failing requests? in the store: ${later.totals.failing} recorded while the client pods were alive`,
      ),
    );
    expect(later.memory?.retention).toMatch(/^failing requests kept: \d+/);
    // the old clients' logs were read once more as their deletion started
    expect(rt.recorder.status().capture?.read).toBeGreaterThanOrEqual(2);
    // /api/health says what the store keeps and since when
    const health = (await (
      await healthGet(new Request('http://meshdx.test/api/health'))
    ).json()) as {
      runtimes: { history: { recorder: { failures: { records: number; text: string } } } }[];
    };
    const kept = health.runtimes[0]?.history.recorder.failures;
    expect(kept?.records).toBe(rt.store.failures.retention().records);
    expect(kept?.text).toMatch(
      /^failing requests kept: [\d,]+ \(.* MiB of 256\.0 MiB\), since 2026-11-01T/,
    );
  }, 90_000);

  it('keeps an uploaded log once, a line without an upstream address as unattributable', async () => {
    const [rt] = runningRuntimes();
    if (!rt) throw new Error('no runtime');
    const at = START.getTime() - 30 * 60_000;
    const text = [
      logLine(at, 503, 'UH', '-'),
      logLine(at + 1000, 503, 'UC', '10.99.0.1:8080'),
    ].join('\n');
    const upload = () =>
      uploadPost(
        new Request('http://meshdx.test/api/incidents/upload', {
          method: 'POST',
          headers: { 'Content-Type': 'text/plain' },
          body: text,
        }),
      );
    expect((await upload()).status).toBe(200);
    expect((await upload()).status).toBe(200);
    const kept = rt.store.failures
      .inWindow({ fromMs: at, toMs: at + 1000 })
      .filter((f) => f.source.read === 'upload');
    expect(kept.map((f) => [f.fields.upstreamHost, f.attribution.state])).toEqual([
      [null, 'unattributable'],
      ['10.99.0.1:8080', 'unknown'],
    ]);
  }, 30_000);
});
