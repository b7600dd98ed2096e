import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeIpHistory } from '../../server/screens/incidents/ip-history';
import { runtimeSource, timelineFleetFrom } from '../../server/screens/timelines/timelines';
import { runtimeOn, simOnly } from '../../test-support/simulator';

/**
 * A history store file that cannot be opened: the runtime keeps its one history in the store's
 * `:memory:` mode for this run and every history view says so; nothing else keeps pods that were.
 */
const s = simOnly('startup-race');

describe('a history store that cannot be opened', () => {
  it('falls back to an in-memory store, and Timelines and Incidents say why', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-fallback-'));
    // a plain file where the store's folder should be: neither the folder nor the file can be made
    const blocker = path.join(dir, 'not-a-dir');
    fs.writeFileSync(blocker, 'x');
    const rt = runtimeOn(s.kc, {
      storeFile: path.join(blocker, 'meshdx.sqlite'),
      settings: { MESHDX_CLOCK: 'objects' },
    }).start();
    try {
      expect(rt.history.file).toBe(':memory:');
      expect(rt.history.fallback).toMatch(/not-a-dir.*could not be opened/);
      await rt.cache.ready();
      await rt.recorder.ready;
      const fleet = await timelineFleetFrom(rt.cache, runtimeSource(rt));
      expect(fleet.rows.length).toBeGreaterThan(0);
      expect(fleet.cache.history).toBe('memory');
      expect(fleet.cache.historyNote).toMatch(/could not be opened/);
      // the in-memory store records as a file would: the live pods are already in it
      expect(rt.store.livePodKeys().size).toBe(rt.cache.livePods().length);
      const ips = runtimeIpHistory(rt);
      expect(ips.info()).toMatchObject({
        source: 'SQLite history store (in memory)',
        note: expect.stringMatching(/could not be opened/),
      });
      expect(ips.load().intervals().length).toBeGreaterThan(0);
    } finally {
      rt.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
