import { describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { phantomTruth } from '../../server/sim/scenarios/phantom-503';
import { followIncidents, type LiveBatch } from '../../server/screens/incidents/live';
import { openFollows } from '../../server/screens/incidents/follow';
import { simClient } from '../../test-support/simulator';

const c = simClient('phantom-503');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live incident mode on phantom-503', () => {
  it('attributes lines as the clients write them, and ends every follow when aborted', async () => {
    await c.runtime.pods.whenListed();
    const clients = c.sim.store
      .list<Pod>('pods')
      .filter((p) => p.metadata.labels?.app === 'checkout')
      .map((p) => `shop/${p.metadata.name}`);
    expect(clients).toHaveLength(2);
    const since = c.sim.clock.now().toISOString();
    const batches: LiveBatch[] = [];
    const abort = new AbortController();
    const done = followIncidents(
      c.runtime,
      { client: clients.join(',') },
      { since, signal: abort.signal, flushMs: 50, send: (b) => batches.push(b) },
    );
    for (let i = 0; i < 50 && openFollows(c.runtime) < 2; i++) await sleep(20);
    expect(openFollows(c.runtime)).toBe(2);
    const before = phantomTruth(c.sim.logs).length;
    // the story's rollout starts 20 s after the scenario began: its 503s are written now
    for (let s = 0; s < 40; s++) {
      c.sim.clock.advance(1000);
      await sleep(10);
    }
    // lines dated after the simulated now are written when the clock reaches them
    const now = c.sim.clock.now().getTime();
    const written = phantomTruth(c.sim.logs)
      .slice(before)
      .filter((w) => Date.parse(w.time) <= now);
    expect(written.length).toBeGreaterThan(5);
    for (let i = 0; i < 100; i++) {
      if (batches.reduce((n, b) => n + b.rows.length, 0) >= written.length) break;
      await sleep(50);
    }
    const rows = batches.flatMap((b) => b.rows).filter((r) => Date.parse(r.time ?? '') <= now);
    expect(rows).toHaveLength(written.length);
    for (const w of written) {
      const row = rows.find((r) => r.time === w.time && r.upstreamIp === w.ip);
      expect(row, `${w.time} ${w.ip}`).toBeDefined();
      expect(row?.pod?.uid).toBe(w.podUid);
      expect(['terminating', 'terminated']).toContain(row?.state);
    }
    const last = batches[batches.length - 1];
    expect(last?.stats.records).toBeGreaterThan(written.length);
    expect(batches.some((b) => b.markers.some((m) => m.kind === 'termination'))).toBe(true);

    // each followed client's log counts as read from the session's start (a little behind the
    // cluster's clock, for lines still settling): a view then reads only past it
    const marked = () =>
      clients.every((client) => c.runtime.store.failures.watermark(client)?.read === 'live');
    for (let i = 0; i < 200 && !marked(); i++) await sleep(50);
    for (const client of clients)
      expect(c.runtime.store.failures.watermark(client)).toMatchObject({
        read: 'live',
        readFrom: Date.parse(since),
      });

    abort.abort();
    await done;
    expect(openFollows(c.runtime)).toBe(0);
    // what the live tail read is kept: the same failures, recorded as read by it
    const kept = c.runtime.store.failures
      .inWindow({ fromMs: Date.parse(since), toMs: now })
      .filter((f) => f.source.read === 'live');
    expect(kept.length).toBe(rows.length);
    for (const row of rows)
      expect(
        kept.some(
          (f) =>
            f.fields.time === Date.parse(row.time ?? '') && f.attribution.pod?.uid === row.pod?.uid,
        ),
      ).toBe(true);
  }, 60_000);
});
