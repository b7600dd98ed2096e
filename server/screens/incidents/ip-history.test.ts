import { describe, expect, it } from 'vitest';
import { openHistoryStore } from '../../store/history-store';
import { MIN, SEC, T0, makeEvent, makePod, observed } from '../../../tests/data/store/pods';
import { storeIpHistory } from './ip-history';

const IP = '10.1.0.7';
const DAY = 24 * 60 * MIN;

describe("the Incidents IP history: the store's one table per interval revision", () => {
  it('is built again only when pod intervals changed, and is the one the store gives every reader', () => {
    const store = openHistoryStore(':memory:', { retentionDays: 1 });
    store.recordPodEvent(observed('ADDED', makePod({ name: 'a', ip: IP }), T0));
    const source = storeIpHistory(store);
    const first = source.load();
    expect(source.load()).toBe(first);
    // the OTLP receiver's target reads the store's table too
    expect(store.loadHistory()).toBe(first);
    expect(first.at(IP, T0 + MIN)).toMatchObject({ state: 'live', holder: { name: 'a' } });

    // a Kubernetes event is no pod interval
    store.recordKubeEvent(
      observed('ADDED', makeEvent({ uid: 'e1', pod: 'a', reason: 'Pulled', last: T0 }), T0),
    );
    store.flush();
    expect(source.load()).toBe(first);

    const deleting = makePod({ name: 'a', ip: IP, deletionAt: T0 + 10 * MIN });
    store.recordPodEvent(observed('MODIFIED', deleting, T0 + 10 * MIN));
    store.recordPodEvent(observed('DELETED', deleting, T0 + 10 * MIN + 30 * SEC));
    const second = source.load();
    expect(second).not.toBe(first);
    expect(second.at(IP, T0 + 11 * MIN)).toMatchObject({
      state: 'terminated',
      holder: { name: 'a' },
    });
    expect(source.load()).toBe(second);

    // retention removes the interval of a pod gone long ago: the table goes with it
    expect(store.prune(T0 + 3 * DAY)?.intervals).toBe(1);
    const third = source.load();
    expect(third).not.toBe(second);
    expect(third.history(IP)).toEqual([]);
    // a prune with nothing to remove changes nothing
    expect(store.prune(T0 + 3 * DAY)?.intervals).toBe(0);
    expect(source.load()).toBe(third);
    store.close();
  });

  it("shares the table with the OTLP receiver, whose read commits nothing of the recorder's batch", () => {
    const store = openHistoryStore(':memory:', { flushIntervalMs: 60_000 });
    store.recordPodEvent(observed('ADDED', makePod({ name: 'a', ip: IP }), T0));
    expect(store.pending).toBeGreaterThan(0);
    const committed = store.committedHistory();
    expect(store.pending).toBeGreaterThan(0);
    expect(committed.history(IP)).toEqual([]);
    const loaded = storeIpHistory(store).load();
    expect(store.pending).toBe(0);
    expect(loaded.history(IP).map((i) => i.name)).toEqual(['a']);
    expect(store.committedHistory()).toBe(loaded);
    store.close();
  });
});
