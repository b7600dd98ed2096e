import { describe, it, expect } from 'vitest';
import { IpLedger } from './ledger';
import { identityKeyJson, intervalRowsOf, intervalTableOf } from './ledger-table';
import type { PodInterval } from './types';
import { ev, MIN, T0 } from '../../tests/data/ledger/pods';
import { mulberry32 } from '../random';

describe('intervalTableOf: a ledger in columns', () => {
  it('answers every lookup as the ledger does: reused IPs, ties in start, untimed and deleted pods', () => {
    const rand = mulberry32(99);
    const ledger = new IpLedger();
    for (let n = 0; n < 300; n++) {
      const ip = `10.1.${n >> 4}.${n & 15}`;
      for (let k = 0; k < 4; k++) {
        const name = `p${n}-${k}`;
        // every fifth IP has two holders starting at the same moment (a tie the order decides)
        const start =
          T0 + (n % 5 === 0 && k === 1 ? 0 : k) * 30 * MIN + Math.floor(rand() * 5) * MIN;
        const timed = rand() < 0.7;
        ledger.add(ev('ADDED', { name, ip, start }, timed ? start : null));
        if (rand() < 0.8) {
          const deletionAt = start + 20 * MIN;
          ledger.add(ev('MODIFIED', { name, ip, start, deletionAt }, timed ? deletionAt : null));
          ledger.add(
            ev('DELETED', { name, ip, start, deletionAt }, timed ? deletionAt + MIN : null),
          );
        }
      }
    }
    // two holders with the very same start, the later key first: the ledger's order stands
    for (let n = 0; n < 300; n += 5) {
      const ip = `10.1.${n >> 4}.${n & 15}`;
      const start = T0 + 150 * MIN;
      for (const name of ['tie-z', 'tie-a'])
        ledger.add(ev('ADDED', { name: `${name}${n}`, ip, start }, start));
    }
    ledger.add(ev('ADDED', { name: 'dual', ip: ['10.9.0.1', 'fd00::1'], start: T0 }, T0));
    const table = intervalTableOf(ledger.eachInterval());
    expect(table.size).toBe(ledger.size);
    let asked = 0;
    for (let n = 0; n < 300; n++) {
      const ip = `10.1.${n >> 4}.${n & 15}`;
      for (let t = T0 - 10 * MIN; t < T0 + 200 * MIN; t += 3 * MIN + 7) {
        expect(table.at(ip, t)).toEqual(ledger.at(ip, t));
        expect(table.at(ip, t, 0)).toEqual(ledger.at(ip, t, 0));
        asked++;
      }
      expect(table.history(ip)).toEqual(ledger.history(ip));
    }
    for (const ip of ['10.9.0.1', 'fd00::1', '10.200.0.1'])
      expect(table.at(ip, T0 + MIN)).toEqual(ledger.at(ip, T0 + MIN));
    expect(asked).toBeGreaterThan(10_000);
    // both are the same IpHistory: every interval, by IP then start
    expect(table.intervals()).toEqual(ledger.intervals());
  });

  it('a ledger hands its intervals to a visitor in eachInterval order: the same rows either way', () => {
    const build = () => {
      const ledger = new IpLedger();
      for (let n = 0; n < 40; n++) {
        const ip = `10.2.0.${n % 7}`;
        const start = T0 + n * MIN;
        // every fourth pod is seen with no time and no status time: it has no interval
        const timed = n % 4 !== 3;
        ledger.add(
          ev('ADDED', { name: `v${n}`, ip, ...(timed ? { start } : {}) }, timed ? start : null),
        );
        if (timed && n % 3 === 0)
          ledger.add(
            ev('DELETED', { name: `v${n}`, ip, start, deletionAt: start + MIN }, start + 2 * MIN),
          );
      }
      ledger.add(ev('ADDED', { name: 'dual', ip: ['10.9.0.1', 'fd00::1'], start: T0 }, T0));
      return ledger;
    };
    const walked = build();
    const seen: PodInterval[] = [];
    walked.forEachInterval((i) => seen.push(i));
    const iterated = build();
    expect(seen).toEqual([...iterated.eachInterval()]);
    // 30 timed pods, the dual-stack one twice; the 10 seen with no time have none
    expect(seen).toHaveLength(32);
    expect(seen.some((i) => i.name === 'v3')).toBe(false);
    expect(seen.filter((i) => i.name === 'dual').map((i) => i.ip)).toEqual(['10.9.0.1', 'fd00::1']);
    expect(intervalRowsOf(build())).toEqual(intervalRowsOf(build().eachInterval()));
  });

  it('an empty ledger gives an empty table that knows no IP', () => {
    const table = intervalTableOf(new IpLedger().eachInterval());
    expect(table.size).toBe(0);
    expect(table.at('10.0.0.1', T0)).toEqual(new IpLedger().at('10.0.0.1', T0));
  });

  it('writes each identity as JSON.stringify writes the array, whatever its strings hold', () => {
    const odd = [
      'shop',
      'a"quote',
      'back\\slash',
      'tab\there',
      'é-pod',
      '\u2028',
      'x\ud800y',
      '\u{1f600}',
      '',
      '~',
    ];
    const intervals: PodInterval[] = odd.map((s, k) => ({
      ip: `10.0.0.${k}`,
      namespace: s,
      name: `${s}-${k}`,
      uid: k % 3 === 0 ? null : s,
      owner: k % 2 ? { kind: 'ReplicaSet', name: s } : null,
      node: k % 4 === 0 ? null : s,
      from: T0,
      fromSource: 'event',
      deletionStartedAt: null,
      graceEndsAt: null,
      goneAt: null,
      goneUncertain: false,
      lastSeenAt: null,
    }));
    const rows = intervalRowsOf(intervals);
    // the namespace, name and uid texts cut out of an identity are JSON.stringify's, or none
    let cut = 0;
    rows.identities.forEach((text, k) => {
      const i = intervals[k] as PodInterval;
      const key = identityKeyJson(text);
      if (key === null) expect(text).toContain('\\');
      else {
        cut++;
        expect(key).toEqual([
          JSON.stringify(i.namespace),
          JSON.stringify(i.name),
          i.uid === null ? 'null' : JSON.stringify(i.uid),
        ]);
      }
    });
    expect(cut).toBeGreaterThan(4);
    const table = intervalTableOf(intervals);
    for (let k = 0; k < intervals.length; k++) {
      const i = intervals[k] as PodInterval;
      expect(table.keyJson(table.locateRow(i.ip, T0 + MIN).index)).toEqual([
        JSON.stringify(i.namespace),
        JSON.stringify(i.name),
        i.uid === null ? 'null' : JSON.stringify(i.uid),
      ]);
    }
    expect(rows.identities).toEqual(
      intervals.map((i) =>
        JSON.stringify([
          i.namespace,
          i.name,
          i.uid,
          i.owner?.kind ?? null,
          i.owner?.name ?? null,
          i.node,
        ]),
      ),
    );
  });
});
