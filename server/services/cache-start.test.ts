import { describe, expect, it } from 'vitest';
import { startClusterCache, type StartableCache } from './cache-start';

describe('startClusterCache', () => {
  it('logs and retries a cluster that is not configured, then a failing first list, until ready', async () => {
    const logs: string[] = [];
    let calls = 0;
    const cache = (): StartableCache => {
      calls++;
      if (calls <= 2) throw new Error('no kubeconfig: set KUBECONFIG');
      return {
        ready: () =>
          calls === 3 ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(),
      };
    };
    const s = startClusterCache({ cache, retryMs: 5, log: (m) => logs.push(m) });
    expect(s.status()).toMatchObject({ ready: false, attempts: 1 });
    await s.ready;
    expect(s.status()).toEqual({ ready: true, attempts: 4, lastError: null });
    // the same error twice is said once; the recovery is said too
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatch(/not started yet .*no kubeconfig/);
    expect(logs[1]).toMatch(/ECONNREFUSED/);
    expect(logs[2]).toBe('meshdx: cluster cache started');
  });

  it('stops retrying when stopped, and settles its promise', async () => {
    let calls = 0;
    const s = startClusterCache({
      cache: () => {
        calls++;
        throw new Error('down');
      },
      retryMs: 5,
      log: () => undefined,
    });
    s.stop();
    await s.ready;
    await new Promise((r) => setTimeout(r, 30));
    expect(calls).toBe(1);
    expect(s.status()).toMatchObject({ ready: false, lastError: 'down' });
  });
});
