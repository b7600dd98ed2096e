import { describe, it, expect } from 'vitest';
import { IntervalTable, IntervalTableBuilder, type IntervalIdentity } from './interval-table';
import { lookupInSorted } from './lookup';
import type { FromSource, PodInterval } from './types';
import { T0, MIN } from './test-pods';
import { mulberry32 } from '../../server/sim/world/build/ids';

const SOURCES: FromSource[] = ['event', 'startTime', 'condition', 'creationTimestamp'];

/** IPs held in turn by pods with every kind of interval: estimated starts, overlaps, open ends. */
function intervals(seed: number): PodInterval[] {
  const r = mulberry32(seed);
  const out: PodInterval[] = [];
  for (let ip = 0; ip < 40; ip++) {
    let t = T0 + Math.floor(r() * 10) * MIN;
    const holders = 1 + Math.floor(r() * 6);
    for (let h = 0; h < holders; h++) {
      const last = h === holders - 1;
      const from = t + (r() < 0.2 ? -Math.floor(r() * 3) * MIN : 0); // some overlap the previous
      const deleting = !last || r() < 0.3;
      const deletionStartedAt = deleting ? from + Math.floor(5 + r() * 20) * MIN : null;
      const goneAt =
        deletionStartedAt !== null && r() < 0.9
          ? deletionStartedAt + Math.floor(r() * 60_000)
          : null;
      const uncertain = goneAt !== null && r() < 0.3;
      out.push({
        ip: `10.0.${ip}.7`, // each IP held by its pods in turn
        namespace: `ns-${ip % 3}`,
        name: `pod-${ip}-${h}`,
        uid: r() < 0.1 ? null : `uid-${ip}-${h}`,
        owner: r() < 0.2 ? null : { kind: 'ReplicaSet', name: `rs-${ip % 5}` },
        node: r() < 0.1 ? null : `node-${h}`,
        from,
        fromSource: SOURCES[Math.floor(r() * 4)] as FromSource,
        deletionStartedAt,
        graceEndsAt: deletionStartedAt === null ? null : deletionStartedAt + 30_000,
        goneAt,
        goneUncertain: uncertain,
        lastSeenAt: r() < 0.5 ? null : from + MIN,
      });
      t = (goneAt ?? deletionStartedAt ?? from + 30 * MIN) + Math.floor(r() * 4) * MIN;
    }
  }
  return out;
}

function tableOf(list: PodInterval[]): IntervalTable {
  const b = new IntervalTableBuilder();
  for (const i of [...list].reverse()) {
    const who: IntervalIdentity = {
      namespace: i.namespace,
      name: i.name,
      uid: i.uid,
      owner: i.owner,
      node: i.node,
    };
    b.add(i.ip, i, JSON.stringify(who));
  }
  return IntervalTable.from(b, (text) => JSON.parse(text) as IntervalIdentity);
}

function sortedByIp(list: PodInterval[]): Map<string, PodInterval[]> {
  const byIp = new Map<string, PodInterval[]>();
  for (const i of list) byIp.set(i.ip, [...(byIp.get(i.ip) ?? []), i]);
  const key = (i: PodInterval) => i.uid || `${i.namespace}/${i.name}`;
  for (const l of byIp.values())
    l.sort((a, b) => a.from - b.from || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return byIp;
}

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
