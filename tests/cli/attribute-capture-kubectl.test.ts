import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test-support/cli-io';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';
import { createCaptureReader } from '../../lib/ledger/capture-reader';
import { createHistoryReader } from '../../lib/ledger/events';
import { startSimulator } from '../../server/sim/index';
import { KUBECTL, requireKubectl } from '../sim/kubectl-harness';

/**
 * The byte reader of `meshdx attribute` against the general JSON reader on what real kubectl
 * writes while pods come and go in the phantom-503 scenario: `get pods -A -w -o json` with
 * --output-watch-events (one event per line) and without (pretty pods one after another), and
 * a pod List.
 */
const START = new Date('2026-11-01T12:00:00Z');
const dir = tempDir('attribute-kubectl-capture');
const captures = new Map<string, Buffer>();
let sim: Awaited<ReturnType<typeof startSimulator>> | undefined;
const exec = promisify(execFile);

function watch(kubeconfig: string, extra: string[]): { proc: ChildProcess; out: Buffer[] } {
  const out: Buffer[] = [];
  const proc = spawn(KUBECTL, [
    '--kubeconfig',
    kubeconfig,
    'get',
    'pods',
    '-A',
    '-w',
    '-o',
    'json',
    ...extra,
  ]);
  proc.stdout?.on('data', (b: Buffer) => out.push(b));
  return { proc, out };
}

beforeAll(async () => {
  requireKubectl('kubectl watch captures for meshdx attribute');
  sim = await startSimulator({ scenario: 'phantom-503', port: 0, clock: { fixed: START } });
  const kubeconfig = path.join(dir, 'kubeconfig');
  fs.writeFileSync(kubeconfig, sim.kubeconfigYaml);
  const list = await exec(
    KUBECTL,
    ['--kubeconfig', kubeconfig, 'get', 'pods', '-A', '-o', 'json'],
    {
      maxBuffer: 64 << 20,
    },
  );
  captures.set('list', Buffer.from(list.stdout));
  const events = watch(kubeconfig, ['--output-watch-events']);
  const plain = watch(kubeconfig, []);
  // once a watch has written the pods it listed, it is watching from that list's
  // resourceVersion (so it misses no change after it); then move the scenario on: rollouts
  // delete and add pods
  await vi.waitFor(
    () => {
      for (const w of [events, plain]) expect(w.out.length).toBeGreaterThan(0);
    },
    { timeout: EVENT_WAIT_GUARD_MS, interval: 20 },
  );
  for (let done = 0; done < 120_000; done += 1_000) {
    sim.clock.advance(1_000);
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r) => setTimeout(r, 1500));
  for (const w of [events, plain]) w.proc.kill();
  captures.set('watch-events', Buffer.concat(events.out));
  captures.set('watch-plain', Buffer.concat(plain.out));
}, 60_000);

afterAll(async () => {
  await sim?.close();
});

describe('real kubectl captures: the byte reader reads what JSON.parse reads', () => {
  for (const name of ['watch-events', 'watch-plain', 'list'])
    it(name, () => {
      const bytes = captures.get(name) ?? Buffer.alloc(0);
      expect(bytes.length).toBeGreaterThan(1000);
      // what kubectl 1.32 prints: watch events one per line, pods and lists pretty
      expect(bytes.subarray(0, 16).toString()).toMatch(
        name === 'watch-events' ? /^\{"type":"ADDED"/ : /^\{\n {4}"/,
      );
      const text = bytes.toString('utf8');
      for (const chunk of [1 << 20, 4096, 333]) {
        const general = createHistoryReader();
        const generalEvents = [];
        for (let i = 0; i < text.length; i += chunk)
          generalEvents.push(...general.push(text.slice(i, i + chunk)));
        general.end();
        const fast = createCaptureReader();
        const fastEvents = [];
        for (let i = 0; i < bytes.length; i += chunk)
          fastEvents.push(...fast.push(bytes.subarray(i, i + chunk)));
        fast.end();
        expect(fastEvents).toEqual(generalEvents);
        expect(fast.problems).toEqual(general.problems);
        expect(fast.counts).toEqual(general.counts);
        if (chunk === 1 << 20) expect(fast.parsedInFull).toBe(0);
      }
      const r = createCaptureReader();
      const events = r.push(bytes);
      r.end();
      expect(events.length).toBeGreaterThan(5);
      if (name === 'watch-events') {
        expect(new Set(events.map((e) => e.type))).toContain('DELETED');
        expect(events.some((e) => e.pod.ips.length > 0 && e.pod.owner !== null)).toBe(true);
      }
    });
});
