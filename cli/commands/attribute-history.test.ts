import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadCaptureTable } from './attribute-history';
import { loadCapture } from './attribute-capture';
import { IpLedger } from '../../lib/ledger/ledger';
import { readHistory } from '../../lib/ledger/events';
import { podJson, T0, MIN } from '../../tests/data/ledger/pods';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-attribute-history-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const limits = { maxDepth: 256, maxValueChars: 1 << 20 };
const file = path.join(dir, 'pods.watch.json');
const events = [];
for (let k = 0; k < 40; k++) {
  const ip = `10.8.0.${k % 10}`;
  const start = T0 + Math.floor(k / 10) * 20 * MIN;
  const a = { name: `p${k}`, ip, start };
  events.push({ type: 'ADDED', object: podJson(a) });
  events.push({ type: 'DELETED', object: podJson({ ...a, deletionAt: start + 15 * MIN }) });
}
fs.writeFileSync(
  file,
  `${events.map((e, k) => JSON.stringify(e, null, k % 2 ? 4 : undefined)).join('\n')}\n{"type":"ERROR","object":{"kind":"Status","message":"gone"}}\n`,
);

describe('reading a capture on a worker thread', () => {
  it('gives the table, problems and counts the general reader and ledger give', async () => {
    const loaded = await loadCaptureTable(file, limits, { workerFromBytes: 0 });
    expect(loaded.warning).toBeNull();
    const general = readHistory(fs.readFileSync(file, 'utf8'));
    expect(loaded.history.problems).toEqual(general.problems);
    expect(loaded.history.counts).toEqual(general.counts);
    const ledger = new IpLedger().addAll(general.events);
    expect(loaded.table.size).toBe(ledger.size);
    for (let k = 0; k < 10; k++)
      for (let t = T0 - MIN; t < T0 + 90 * MIN; t += 4 * MIN)
        expect(loaded.table.at(`10.8.0.${k}`, t)).toEqual(ledger.at(`10.8.0.${k}`, t));
  });

  it('reads the capture here, with a warning, when the worker cannot run', async () => {
    const missing = new URL('./no-such-worker-entry.mjs', import.meta.url);
    const loaded = await loadCaptureTable(file, limits, {
      workerEntry: missing,
      workerFromBytes: 0,
    });
    expect(loaded.warning).toMatch(
      /^the capture worker failed \(.+\); the capture was read on the main thread$/,
    );
    expect(loaded.history).toEqual(loadCapture(file, limits));
    expect(loaded.table.size).toBe(40);
  });

  it('a history that cannot be read is an error, from the worker as from here', async () => {
    // a directory passes a size check but cannot be read
    await expect(loadCaptureTable(dir, limits, { workerFromBytes: 0 })).rejects.toThrow(/EISDIR/);
    expect(() => loadCapture(dir, limits)).toThrow(/EISDIR/);
  });
});
