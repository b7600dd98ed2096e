import { describe, expect, it } from 'vitest';
import { IpLedger } from '../ledger/ledger';
import { ev, heldThenDeleted, MIN, T0 } from '../../tests/data/ledger/pods';
import { logLine } from '../../tests/data/incidents/logs';
import { readFailures } from './read-failures';
import { failuresHitting, terminationFailureIndex } from './pod-failures';
import type { StoredFailure } from './failure-store';

const IP = '10.8.0.5';

/** payments-a holds IP until T0+10min (gone 20 s later); payments-b gets it at T0+12min. */
function recorded(): StoredFailure[] {
  const ledger = new IpLedger().addAll([
    ...heldThenDeleted('payments-a', IP, T0 + 10 * MIN, 20_000),
    ev('ADDED', { name: 'payments-b' }, T0 + 12 * MIN),
    ev('MODIFIED', { name: 'payments-b', ip: IP, start: T0 + 12 * MIN }, T0 + 12 * MIN + 500),
  ]);
  const text = [
    logLine(T0 + 10 * MIN + 5000, 503, 'UC', `${IP}:8080`),
    logLine(T0 + 11 * MIN, 503, 'UF', `${IP}:8080`),
    logLine(T0 + 13 * MIN, 503, 'URX', `${IP}:8080`),
  ].join('\n');
  const r = readFailures(
    { source: 'shop/checkout-1', clientPod: 'shop/checkout-1', text },
    'view',
    null,
    ledger,
  );
  return r.failures.map((f, i) => ({ ...f, id: i + 1, recordedAt: T0 + 20 * MIN }));
}

describe("a pod's page: the failing requests that reached it", () => {
  const window = { fromMs: T0, toMs: T0 + 70 * MIN };
  it('counts those sent to the gone pod, by its state then, and not its namesake’s IP reuse', () => {
    const all = recorded();
    const a = all[0]?.attribution.pod;
    expect(a?.name).toBe('payments-a');
    const f = failuresHitting(
      { namespace: a?.namespace ?? '', name: 'payments-a', uid: a?.uid ?? null },
      all,
      window,
    );
    expect(f.count).toBe(2);
    expect(f.byState).toEqual({ terminating: 1, gone: 1 });
    expect(f.clients).toEqual(['shop/checkout-1']);
    expect(f.firstAt).toBe(new Date(T0 + 10 * MIN + 5000).toISOString());
    expect(f.lastAt).toBe(new Date(T0 + 11 * MIN).toISOString());
    const b = failuresHitting({ namespace: a?.namespace ?? '', name: 'payments-b' }, all, window);
    expect(b.count).toBe(1);
  });

  it('tells a pod from an earlier one of the same name by uid', () => {
    const all = recorded();
    const a = all[0]?.attribution.pod;
    const other = failuresHitting(
      { namespace: a?.namespace ?? '', name: 'payments-a', uid: 'another-incarnation' },
      all,
      window,
    );
    expect(a?.uid).toBeTruthy();
    expect(other.count).toBe(0);
  });
});

describe("a pod's termination figure: the same records the pod page counts", () => {
  const window = { fromMs: T0, toMs: T0 + 70 * MIN };
  it('counts the failures sent while it terminated and after it went, as the page does', () => {
    const all = recorded();
    const a = all[0]?.attribution.pod;
    const ref = { namespace: a?.namespace ?? '', name: 'payments-a', uid: a?.uid ?? null };
    const page = failuresHitting(ref, all, window);
    const fig = terminationFailureIndex(all)(ref, window);
    expect(fig.count).toBe((page.byState.terminating ?? 0) + (page.byState.gone ?? 0));
    expect(fig).toMatchObject({ count: 2, toTerminating: 1, toGone: 1 });
    // the later one was sent 20 s + 40 s after the deletion started (gone after 20 s)
    expect(fig.lastAfterDeletionMs).toBeGreaterThan(20_000);
    // the namesake holding the reused IP was running: nothing against its termination
    expect(
      terminationFailureIndex(all)({ ...ref, name: 'payments-b', uid: null }, window).count,
    ).toBe(0);
    // another incarnation of the name (another uid) is another pod
    expect(terminationFailureIndex(all)({ ...ref, uid: 'another-incarnation' }, window).count).toBe(
      0,
    );
    // outside the pod's window nothing counts
    expect(terminationFailureIndex(all)(ref, { fromMs: T0, toMs: T0 + 10 * MIN }).count).toBe(0);
  });
});
