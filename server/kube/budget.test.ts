import { describe, expect, it } from 'vitest';
import { RequestBudget, requestKind, TokenBucket } from './budget';

describe('TokenBucket', () => {
  it('lets a burst through, then spaces requests at the rate', () => {
    let now = 0;
    const b = new TokenBucket(10, 3, () => now);
    expect([b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0]);
    // the 4th and 5th wait 100 and 200 ms at 10 QPS
    expect(b.reserve()).toBe(100);
    expect(b.reserve()).toBe(200);
    now = 1_000; // 10 tokens refilled, minus the 2 owed, capped at burst 3
    expect([b.reserve(), b.reserve(), b.reserve(), b.reserve()]).toEqual([0, 0, 0, 100]);
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
});
