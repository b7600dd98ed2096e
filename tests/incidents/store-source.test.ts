import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openHistoryStore } from '../../server/store/history-store';
import { MIN, SEC, T0, makePod, observed } from '../data/store/pods';
import { storeIpHistory } from '../../server/screens/incidents/ip-history';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-incidents-store-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the SQLite history store as the incidents interval source', () => {
  it('answers (ip, time) lookups through storeIpHistory', async () => {
    const store = openHistoryStore(path.join(dir, 'h.sqlite'));
    const IP = '10.1.0.7';
    store.recordPodEvent(observed('ADDED', makePod({ name: 'a' }), T0));
    store.recordPodEvent(observed('MODIFIED', makePod({ name: 'a', ip: IP }), T0 + 5 * SEC));
    const deleting = makePod({ name: 'a', ip: IP, deletionAt: T0 + 10 * MIN });
    store.recordPodEvent(observed('MODIFIED', deleting, T0 + 10 * MIN));
    store.recordPodEvent(observed('DELETED', deleting, T0 + 10 * MIN + 31 * SEC));
    store.recordPodEvent(
      observed('ADDED', makePod({ name: 'b', ip: IP, start: T0 + 11 * MIN }), T0 + 11 * MIN),
    );
    const source = storeIpHistory(store);
    await source.ready;
    expect(
      source
        .load()
        .intervals()
        .filter((i) => i.ip === IP)
        .map((i) => i.name),
    ).toEqual(['a', 'b']);
    const lookup = source.load();
    expect(lookup.at(IP, T0 + 10 * MIN + 40 * SEC)).toMatchObject({
      state: 'terminated',
      holder: { name: 'a' },
    });
    expect(lookup.at(IP, T0 + 12 * MIN)).toMatchObject({ state: 'live', holder: { name: 'b' } });
    expect(lookup.history(IP)).toHaveLength(2);
    store.close();
  });
});
