import { describe, it, expect } from 'vitest';
import { IpLedger } from '../ledger/ledger';
import { ev, MIN, T0 } from '../../tests/data/ledger/pods';
import type { PodInterval } from '../ledger/types';
import { afterGone, clock, fmtDuration } from './format';
import { bucketSizeMs, failureBuckets } from './chart';
import { ROLLOUT_GAP_MS, rollouts, terminationMarkers } from './markers';
import { maxConcurrentTerminations, peakHolders } from './rows';
import type { AttributedRequest } from './collect';

function withOwner(i: PodInterval, rs: string): PodInterval {
  return { ...i, owner: { kind: 'ReplicaSet', name: rs } };
}

function intervals(): PodInterval[] {
  const l = new IpLedger().addAll([
    ev('ADDED', { name: 'old-1', ip: '10.0.0.1', start: T0 - 60 * MIN }, null),
    ev(
      'MODIFIED',
      { name: 'old-1', ip: '10.0.0.1', start: T0 - 60 * MIN, deletionAt: T0 + MIN },
      T0 + MIN,
    ),
    ev(
      'DELETED',
      { name: 'old-1', ip: '10.0.0.1', start: T0 - 60 * MIN, deletionAt: T0 + MIN },
      T0 + MIN + 6000,
    ),
    ev('ADDED', { name: 'old-2', ip: '10.0.0.2', start: T0 - 60 * MIN }, null),
    ev(
      'MODIFIED',
      { name: 'old-2', ip: '10.0.0.2', start: T0 - 60 * MIN, deletionAt: T0 + MIN + 3000 },
      T0 + MIN + 3000,
    ),
    ev(
      'DELETED',
      { name: 'old-2', ip: '10.0.0.2', start: T0 - 60 * MIN, deletionAt: T0 + MIN + 3000 },
      T0 + MIN + 9000,
    ),
    ev('ADDED', { name: 'new-1' }, T0 + 50_000),
    ev('MODIFIED', { name: 'new-1', ip: '10.0.0.3', start: T0 + 50_000 }, T0 + 52_000),
  ]);
  return l
    .intervals()
    .map((i) => withOwner(i, i.name.startsWith('old') ? 'payments-6f7c9' : 'payments-8d2b1'));
}

describe('markers and rollouts', () => {
  const scope = { fromMs: T0, toMs: T0 + 5 * MIN, namespaces: new Set(['shop']) };
  it('marks each termination and removal once, in time order', () => {
    const m = terminationMarkers(intervals(), scope);
    expect(m.map((x) => [x.kind, x.pod, x.at])).toEqual([
      ['termination', 'shop/old-1', new Date(T0 + MIN).toISOString()],
      ['termination', 'shop/old-2', new Date(T0 + MIN + 3000).toISOString()],
      ['gone', 'shop/old-1', new Date(T0 + MIN + 6000).toISOString()],
      ['gone', 'shop/old-2', new Date(T0 + MIN + 9000).toISOString()],
    ]);
    expect(terminationMarkers(intervals(), { ...scope, namespaces: new Set(['other']) })).toEqual(
      [],
    );
  });

  it('finds a rollout (old ReplicaSet out, new one in) and the overlap of terminations', () => {
    expect(rollouts(intervals(), scope)).toEqual([
      {
        namespace: 'shop',
        workload: 'payments',
        replicaSet: 'payments-8d2b1',
        from: new Date(T0 + 52_000).toISOString(),
        to: new Date(T0 + MIN + 9000).toISOString(),
        pods: 2,
      },
    ]);
    const onlyOld = intervals().filter((i) => i.name.startsWith('old'));
    expect(rollouts(onlyOld, scope)).toEqual([]);
    expect(
      maxConcurrentTerminations(intervals(), new Set(['shop/payments']), T0, T0 + 5 * MIN),
    ).toBe(2);
    // 3 pods held an IP at once (new-1 came before old-1 went), 1 once the old ones are gone
    const payments = new Set(['shop/payments']);
    expect(peakHolders(intervals(), payments, T0, T0 + 5 * MIN)).toBe(3);
    expect(peakHolders(intervals(), payments, T0 + 2 * MIN, T0 + 5 * MIN)).toBe(1);
    expect(peakHolders(intervals(), new Set(['shop/other']), T0, T0 + 5 * MIN)).toBe(0);
  });
});

/**
 * Five `kubectl rollout restart`s six minutes apart: each brings a new ReplicaSet whose two pods
 * start, then the previous revision's two pods are deleted and gone 20 s later.
 */
function fiveRollouts(): PodInterval[] {
  const hashes = ['6f7c9', '8d2b1', '5c4d7', '7b9f8', '9a6c5', '4e8d6'];
  const rs = (k: number) => `payments-${hashes[k]}`;
  const events = [];
  let ip = 1;
  const ips = new Map<string, string>();
  const podIp = (name: string) => {
    if (!ips.has(name)) ips.set(name, `10.0.1.${ip++}`);
    return ips.get(name) as string;
  };
  for (const n of ['a', 'b']) {
    const name = `${rs(0)}-${n}`;
    events.push(ev('ADDED', { name, ip: podIp(name), start: T0 - 60 * MIN }, null));
  }
  for (let k = 1; k <= 5; k++) {
    const t = T0 + k * 6 * MIN;
    for (const n of ['a', 'b']) {
      const name = `${rs(k)}-${n}`;
      events.push(ev('ADDED', { name }, t));
      events.push(ev('MODIFIED', { name, ip: podIp(name), start: t + 2000 }, t + 2000));
      const old = `${rs(k - 1)}-${n}`;
      const start = k === 1 ? T0 - 60 * MIN : t - 6 * MIN + 2000;
      const deletionAt = t + 10_000;
      events.push(ev('MODIFIED', { name: old, ip: podIp(old), start, deletionAt }, deletionAt));
      events.push(
        ev('DELETED', { name: old, ip: podIp(old), start, deletionAt }, deletionAt + 20_000),
      );
    }
  }
  return new IpLedger()
    .addAll(events)
    .intervals()
    .map((i) => withOwner(i, i.name.slice(0, i.name.lastIndexOf('-'))));
}

describe('rollout bands', () => {
  it('draws one band per rollout, not one over five rollouts of the same workload', () => {
    const scope = { fromMs: T0, toMs: T0 + 40 * MIN, namespaces: new Set(['shop']) };
    const r = rollouts(fiveRollouts(), scope);
    expect(r.map((x) => x.replicaSet)).toEqual([
      'payments-8d2b1',
      'payments-5c4d7',
      'payments-7b9f8',
      'payments-9a6c5',
      'payments-4e8d6',
    ]);
    for (const [k, x] of r.entries()) {
      const t = T0 + (k + 1) * 6 * MIN;
      expect(x.from).toBe(new Date(t + 2000).toISOString());
      expect(x.to).toBe(new Date(t + 30_000).toISOString());
      expect(x.pods).toBe(2);
    }
  });

  it('ends a rollout after a quiet spell even when no new revision starts', () => {
    const scope = { fromMs: T0, toMs: T0 + 40 * MIN, namespaces: new Set(['shop']) };
    // the same starts and deletions, every new revision named alike: only time tells them apart
    const same = fiveRollouts().map((i) =>
      withOwner(i, i.owner?.name === 'payments-6f7c9' ? 'payments-6f7c9' : 'payments-5b8c7'),
    );
    expect(rollouts(same, scope).length).toBeGreaterThanOrEqual(1);
    expect(ROLLOUT_GAP_MS).toBeLessThan(6 * MIN - 30_000);
    const bands = rollouts(same, scope);
    for (const b of bands)
      expect(Date.parse(b.to) - Date.parse(b.from)).toBeLessThanOrEqual(6 * MIN);
  });
});

describe('chart buckets and formatting', () => {
  const req = (timeMs: number | null, flags: string[]) => ({ timeMs, flags }) as AttributedRequest;
  it('zero-fills minute buckets and counts each flag', () => {
    const r = failureBuckets(
      [
        req(T0 + 1000, ['UC']),
        req(T0 + 2000, ['UC', 'URX']),
        req(T0 + 2 * MIN, []),
        req(null, ['UF']),
      ],
      T0,
      T0 + 2 * MIN + 1,
      60_000,
    );
    expect(r.buckets.map((b) => b.total)).toEqual([2, 0, 1]);
    expect(r.buckets[0]?.byFlag).toEqual({ UC: 2, URX: 1 });
    expect(r.flags).toEqual(['UC', '-', 'URX']);
    expect(r.untimed).toBe(1);
    expect(bucketSizeMs(30 * MIN)).toBe(15_000);
    expect(bucketSizeMs(24 * 60 * MIN)).toBe(15 * MIN);
  });

  it('prints durations and times', () => {
    expect(fmtDuration(850)).toBe('850 ms');
    expect(fmtDuration(4200)).toBe('4.2 s');
    expect(fmtDuration(81_000)).toBe('1 min 21 s');
    expect(fmtDuration(2 * 3_600_000 + 10 * MIN)).toBe('2 h 10 min');
    expect(clock('2026-11-01T12:00:31.003Z')).toBe('12:00:31');
    expect(clock(null)).toBe('–');
    expect(afterGone('2026-11-01T12:00:34Z', '2026-11-01T12:00:31Z')).toBe(3000);
    expect(afterGone('2026-11-01T12:00:30Z', '2026-11-01T12:00:31Z')).toBeNull();
  });
});
