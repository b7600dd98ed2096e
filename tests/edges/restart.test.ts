import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { openHistoryStore } from '../../server/store/history-store';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';

/**
 * A restarted simulator is a new cluster run: its pods are new objects, and a real cluster never
 * gives a new object the uid of an earlier one. Were uids reissued, the history store (keyed by
 * uid and IP) would overwrite what the earlier run's pods left.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-uid-reuse-'));
const CLOCK = { fixed: new Date('2026-11-01T12:00:00Z') };

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function run<T>(opts: { stateFile?: string }, f: (sim: RunningSimulator) => T): Promise<T> {
  const sim = await startSimulator({ scenario: 'demo', port: 0, clock: CLOCK, ...opts });
  try {
    return f(sim);
  } finally {
    await sim.close();
  }
}

const pods = (sim: RunningSimulator) => sim.store.list('pods') as Pod[];

describe('a restarted simulator never reuses a uid', () => {
  it('without a state file: the same seeded pods by name, none with an earlier uid', async () => {
    const first = await run({}, pods);
    const second = await run({}, pods);
    expect(second.map((p) => p.metadata.name).sort()).toEqual(
      first.map((p) => p.metadata.name).sort(),
    );
    const earlier = new Set(first.map((p) => p.metadata.uid));
    expect(second.filter((p) => earlier.has(p.metadata.uid))).toEqual([]);
  });

  it('with --state: each start its own uids too', async () => {
    const stateFile = path.join(dir, 'sim.state');
    const first = await run({ stateFile }, pods);
    const second = await run({ stateFile }, pods);
    const earlier = new Set(first.map((p) => p.metadata.uid));
    expect(second.filter((p) => earlier.has(p.metadata.uid))).toEqual([]);
  });

  it("a restart onto the same history store leaves the earlier run's intervals as they were", async () => {
    const file = path.join(dir, 'history.sqlite');
    const record = (list: Pod[], at: number) => {
      const store = openHistoryStore(file, { flushIntervalMs: 0 });
      for (const pod of list)
        store.recordPodEvent({ type: 'ADDED', object: pod, observedAt: new Date(at), via: 'list' });
      const intervals = [...store.intervals()];
      store.close();
      return intervals;
    };
    const t0 = CLOCK.fixed.getTime();
    const before = await run({}, (sim) => record(pods(sim), t0));
    expect(before.length).toBeGreaterThan(50);
    const after = await run({}, (sim) => record(pods(sim), t0 + 60_000));
    for (const interval of before) expect(after).toContainEqual(interval);
    expect(after.length).toBeGreaterThanOrEqual(2 * before.length);
  });
});
