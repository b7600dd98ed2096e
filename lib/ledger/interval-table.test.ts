import { describe, it, expect } from 'vitest';
import { lookupInSorted } from './lookup';
import type { PodInterval } from './types';
import { T0, MIN } from '../../tests/data/ledger/pods';
import { intervals, tableOf } from '../../tests/data/ledger/intervals';
import { mulberry32 } from '../random';
import { podIdKey } from '../refs/pod-ref';

function sortedByIp(list: PodInterval[]): Map<string, PodInterval[]> {
  const byIp = new Map<string, PodInterval[]>();
  for (const i of list) byIp.set(i.ip, [...(byIp.get(i.ip) ?? []), i]);
  const key = (i: PodInterval) => podIdKey(i);
  for (const l of byIp.values())
    l.sort((a, b) => a.from - b.from || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return byIp;
}

const identityOf = (i: PodInterval) => ({
  namespace: i.namespace,
  name: i.name,
  uid: i.uid,
  owner: i.owner,
  node: i.node,
});

describe('IntervalTable', () => {
  for (const seed of [1, 2, 3]) {
    it(`answers every lookup as the interval list does (seed ${seed})`, () => {
      const list = intervals(seed);
      const table = tableOf(list);
      const byIp = sortedByIp(list);
      expect(table.size).toBe(list.length);
      const r = mulberry32(seed * 7);
      let states = new Set<string>();
      for (const [ip, l] of byIp) {
        expect(table.history(ip)).toEqual(l);
        for (let q = 0; q < 60; q++) {
          const t = T0 + Math.floor(r() * 200) * MIN + Math.floor(r() * 60_000);
          const tol = q % 2 ? 0 : 5 * MIN;
          const want = lookupInSorted(ip, t, l, tol);
          const got = table.at(ip, t, tol);
          states = states.add(got.state);
          expect({ ...got, reason: got.reason }).toEqual({ ...want, reason: want.reason });
          // the same answer by row, without the lookup's objects
          const row = table.locateRow(ip, t, tol);
          expect([row.state, row.afterTerminationMs]).toEqual([
            want.state,
            want.afterTerminationMs,
          ]);
          if (want.holder) expect(table.identity(row.index)).toMatchObject(identityOf(want.holder));
          else if (row.index >= 0) expect(row.state).toBe('unknown');
        }
      }
      // the generated history reaches every state, so the comparison covers every branch
      expect([...states].sort()).toEqual(['live', 'terminated', 'terminating', 'unknown']);
    });
  }

  it('knows nothing of an IP it has no row for', () => {
    const table = tableOf(intervals(1));
    expect(table.history('192.0.2.1')).toEqual([]);
    expect(table.at('192.0.2.1', T0)).toMatchObject({ state: 'unknown', holder: null });
    expect(table.at('192.0.2.1', T0).reason).toBe('no pod known to have held 192.0.2.1');
  });
});
