import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openHistoryStore } from './history-store';
import { MIN, SEC, T0, makePod, observed } from '../../tests/data/store/pods';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-import-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const IP = '10.1.0.7';

describe('importIntervals (a gathered archive seeding its context)', () => {
  it("answers who held an IP from another store's intervals, gone pods too, and the feeds meet the same rows", () => {
    const source = openHistoryStore(':memory:');
    // pod a: watched from Pending to deletion; pod b: a later pod that got a's IP
    source.recordPodEvent(observed('ADDED', makePod({ name: 'a' }), T0));
    source.recordPodEvent(observed('MODIFIED', makePod({ name: 'a', ip: IP }), T0 + 5 * SEC));
    const deleting = makePod({ name: 'a', ip: IP, deletionAt: T0 + 10 * MIN });
    source.recordPodEvent(observed('MODIFIED', deleting, T0 + 10 * MIN));
    source.recordPodEvent(observed('DELETED', deleting, T0 + 10 * MIN + 31 * SEC));
    const b = makePod({ name: 'b', ip: IP, start: T0 + 10 * MIN + 50 * SEC });
    source.recordPodEvent(observed('ADDED', b, T0 + 11 * MIN));
    const intervals = source.intervals();
    source.close();
    const target = openHistoryStore(path.join(dir, 'seeded.sqlite'));
    expect(target.importIntervals(intervals)).toBe(intervals.length);
    expect(target.intervals()).toEqual(intervals);
    // a's deletion had started by then: the archive's answer is the recording store's
    expect(target.at(IP, T0 + 10 * MIN + 10 * SEC)).toMatchObject({
      state: 'terminating',
      holder: { name: 'a' },
    });
    expect(target.at(IP, T0 + 12 * MIN)).toMatchObject({ state: 'live', holder: { name: 'b' } });
    // importing again adds nothing: an interval is its pod and IP
    target.importIntervals(intervals);
    expect(target.intervals()).toHaveLength(intervals.length);
    target.close();
  });
});
