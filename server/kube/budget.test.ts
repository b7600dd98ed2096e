import { describe, expect, it } from 'vitest';
import { RequestBudget, requestKind, TokenBucket } from './budget';

describe('TokenBucket', () => {
  it('lets a burst through, then a token per 1/QPS, never more than the burst after a pause', () => {
    let now = 0;
    const b = new TokenBucket(10, 3, () => now);
    expect([b.tryTake(), b.tryTake(), b.tryTake(), b.tryTake()]).toEqual([true, true, true, false]);
    // the next whole token at 10 QPS is 100 ms away
    expect(b.untilNext()).toBe(100);
    now = 50;
    expect(b.untilNext()).toBe(50);
    now = 100;
    expect([b.tryTake(), b.tryTake()]).toEqual([true, false]);
    now = 10_000; // a long pause refills to the burst, not to 100 tokens
    expect([b.tryTake(), b.tryTake(), b.tryTake(), b.tryTake()]).toEqual([true, true, true, false]);
  });
});

describe('requestKind', () => {
  it('names requests as apiserver_request_total would', () => {
    expect(requestKind('GET', '/api/v1/pods', false)).toBe('list');
    expect(requestKind('GET', '/api/v1/namespaces/a/pods', false)).toBe('list');
    expect(requestKind('GET', '/api/v1/namespaces/a/pods/p', false)).toBe('get');
    expect(requestKind('GET', '/apis/networking.istio.io/v1/sidecars', false)).toBe('list');
    expect(
      requestKind('GET', '/api/v1/namespaces/a/pods/p:15090/proxy/stats/prometheus', false),
    ).toBe('proxy');
    expect(requestKind('GET', '/api/v1/namespaces/a/pods/p/log', false)).toBe('log');
    expect(requestKind('GET', '/api/v1/pods', true)).toBe('watch');
  });
});

describe('RequestBudget', () => {
  it('hands tokens to the lists and gets waiting before the bulk reads queued earlier', async () => {
    let now = 0;
    const budget = new RequestBudget(
      { qps: 10, burst: 1, proxyConcurrency: 100 },
      () => now,
      async (ms) => {
        now += ms;
        await new Promise((r) => setImmediate(r));
      },
    );
    const order: string[] = [];
    const ask = (kind: 'proxy' | 'log' | 'list' | 'get', name: string) =>
      budget.acquire(kind).then((release) => {
        order.push(name);
        release();
      });
    // the burst's one token goes to the first; the rest queue: three bulk, then a list and a get
    const all = [
      ask('get', 'first'),
      ask('proxy', 'proxy-2'),
      ask('log', 'log-1'),
      ask('proxy', 'proxy-3'),
      ask('list', 'list-1'),
      ask('get', 'get-1'),
    ];
    await Promise.all(all);
    expect(order.slice(0, 3)).toEqual(['first', 'list-1', 'get-1']);
    expect(order.slice(3).sort()).toEqual(['log-1', 'proxy-2', 'proxy-3']);
  });

  it('caps pods/proxy calls in flight and never throttles watches', async () => {
    let now = 0;
    const slept: number[] = [];
    const budget = new RequestBudget(
      { qps: 1, burst: 1, proxyConcurrency: 2 },
      () => now,
      async (ms) => {
        slept.push(ms);
        now += ms;
      },
    );
    const r1 = await budget.acquire('proxy');
    const r2 = await budget.acquire('proxy');
    let third = false;
    const p3 = budget.acquire('proxy').then((r) => {
      third = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(third).toBe(false);
    expect(budget.stats().inFlightProxy).toBe(2);
    r1();
    r1(); // a release called twice frees one slot only
    const r3 = await p3;
    expect(third).toBe(true);
    expect(budget.stats().peakInFlightProxy).toBe(2);
    for (let i = 0; i < 5; i++) await budget.acquire('watch');
    r2();
    r3();
    const s = budget.stats();
    expect(s.requests.proxy).toBe(3);
    expect(s.requests.watch).toBe(5);
    expect(s.slotWaits).toBe(1);
    // burst 1 at 1 QPS: the 2nd and 3rd proxy calls waited for tokens, the watches did not
    expect(slept).toEqual([1000, 1000]);
    expect(s.throttledWaits).toBe(2);
    expect(s.inFlightProxy).toBe(0);
  });

  it('after a stall, the waiters go at the rate: never more than burst + QPS x t', async () => {
    let now = 0;
    const sent: number[] = [];
    // a sleep that overshoots by 3 s, as on an event loop that stalled (the clock moves once
    // the requests let go before it have run)
    const budget = new RequestBudget(
      { qps: 10, burst: 5 },
      () => now,
      async (ms) => {
        await new Promise((r) => setImmediate(r));
        now += ms + 3_000;
      },
    );
    await Promise.all(
      Array.from({ length: 40 }, () => budget.acquire('list').then(() => sent.push(now))),
    );
    expect(sent).toHaveLength(40);
    for (const at of sent) {
      const inWindow = sent.filter((t) => t >= at && t < at + 1_000).length;
      expect(inWindow, `from ${at} ms`).toBeLessThanOrEqual(5 + 10);
    }
    // each wake of the stalled loop lets the burst go, no more
    expect(new Set(sent).size).toBe(8);
    expect(budget.stats().throttledWaits).toBe(35);
  });
});
