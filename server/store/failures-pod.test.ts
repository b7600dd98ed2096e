import { afterEach, describe, expect, it } from 'vitest';
import { createLineParser } from '../../lib/accesslog/parser';
import { IpLedger } from '../../lib/ledger/ledger';
import { failureOf } from '../../lib/incidents/failure-record';
import { failuresHitting } from '../../lib/incidents/pod-failures';
import type { FailureInput } from '../../lib/incidents/failure-store';
import type { PodIdentity } from '../../lib/refs/pod-ref';
import { logLine } from '../../tests/data/incidents/logs';
import { MIN, T0 } from '../../tests/data/ledger/pods';
import { openHistoryStore, type HistoryStore } from './history-store';

/**
 * The records that reached one pod, read by the store through its pod indexes (the pod page),
 * are the ones failuresHitting picks out of the whole window: by uid where a record has one, by
 * namespace and name where it has none; a namesake with another uid is another pod.
 */
let store: HistoryStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

function reaching(at: number, pod: PodIdentity | null, n: number): FailureInput {
  const line = logLine(at, 503, 'UC', `10.8.0.${n}:8080`);
  const r = createLineParser().push(line);
  if (r.kind !== 'record') throw new Error('not a record');
  const f = failureOf(
    line,
    r.record,
    { read: 'view', proxy: 'shop/checkout-1', proxyUid: null },
    new IpLedger(),
  );
  return pod === null
    ? f
    : {
        ...f,
        attribution: {
          ...f.attribution,
          pod: { namespace: pod.namespace, name: pod.name, uid: pod.uid ?? null },
          state: 'gone',
        },
      };
}

describe('the failures that reached one pod', () => {
  const pod = { namespace: 'shop', name: 'payments-1', uid: 'uid-now' };
  const inputs = [
    reaching(T0, pod, 1),
    reaching(T0 + MIN, { ...pod, uid: 'uid-before' }, 2), // a namesake: another pod
    reaching(T0 + 2 * MIN, { ...pod, uid: null }, 3), // recorded without a uid: by name
    reaching(T0 + 3 * MIN, { ...pod, name: 'payments-2', uid: 'uid-2' }, 4),
    reaching(T0 + 4 * MIN, { namespace: 'ops', name: 'payments-1', uid: null }, 5),
    reaching(T0 + 5 * MIN, null, 6), // never attributed
    reaching(T0 + 6 * MIN, { ...pod, uid: 'uid-now' }, 7),
  ];
  const window = { fromMs: T0, toMs: T0 + 10 * MIN };

  const whos: PodIdentity[] = [
    pod,
    { ...pod, uid: null },
    { ...pod, uid: 'uid-before' },
    { namespace: 'ops', name: 'payments-1' },
  ];
  for (const who of whos) {
    it(`by the store's indexes equal the window's filtered (uid ${who.uid ?? 'none'}, ${who.namespace})`, () => {
      store = openHistoryStore(':memory:');
      store.failures.record(inputs, T0 + 10 * MIN);
      const all = store.failures.inWindow(window);
      const narrowed = store.failures.inWindow({ ...window, pod: who });
      expect(failuresHitting(who, narrowed, window)).toEqual(failuresHitting(who, all, window));
      // nothing that is not the pod's is read
      expect(narrowed.length).toBe(failuresHitting(who, all, window).count);
      expect(store.failures.countsInWindow({ ...window, pod: who }).view).toBe(narrowed.length);
    });
  }

  it('the records of the pod uid come to 2, of its name without uid to 1 more', () => {
    store = openHistoryStore(':memory:');
    store.failures.record(inputs, T0 + 10 * MIN);
    expect(store.failures.inWindow({ ...window, pod }).map((f) => f.fields.upstreamHost)).toEqual([
      '10.8.0.1:8080',
      '10.8.0.3:8080',
      '10.8.0.7:8080',
    ]);
  });

  it("reads the records of a termination's states alone, as Timelines' drain figures count them", () => {
    store = openHistoryStore(':memory:');
    store.failures.record(inputs, T0 + 10 * MIN);
    const states = store.failures
      .inWindow({ ...window, states: ['terminating', 'gone'] })
      .map((f) => f.attribution.state);
    expect(states).toEqual(['gone', 'gone', 'gone', 'gone', 'gone', 'gone']);
    expect(store.failures.inWindow({ ...window, states: ['running'] })).toEqual([]);
    expect(store.failures.inWindow(window)).toHaveLength(7);
  });
});
