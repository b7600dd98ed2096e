import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isRequestError } from '../../lib/api/request-error';
import { LastReads, ViewDeadline, firstListWithin } from './deadline';

const after = <T>(ms: number, v: T) => new Promise<T>((r) => setTimeout(() => r(v), ms));

/**
 * Every test here runs on the test's own clock (faked timers and Date): a loaded machine fires
 * a 50 ms timer late, and what the deadlines do must not depend on that. `settled` moves the
 * clock a millisecond at a time until `p` settles, so a time read afterwards is what the
 * deadline made it, to the millisecond.
 */
async function settled<T>(p: Promise<T>): Promise<T> {
  let done = false;
  p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let ms = 0; !done; ms++) {
    if (ms > 60_000) throw new Error('still pending after 60 s on the test clock');
    await vi.advanceTimersByTimeAsync(1);
  }
  return p;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ViewDeadline', () => {
  it('gives a part that is in time, and names one that is late without waiting for it', async () => {
    const d = new ViewDeadline('Overview', 100);
    expect(await settled(d.within('namespaces', after(5, 3)))).toEqual({ ok: true, value: 3 });
    const t0 = Date.now();
    const r = await settled(d.within('pods', after(2_000, 1), () => '3 pages read'));
    expect(Date.now() - t0).toBeLessThan(400);
    expect(r.ok).toBe(false);
    expect(d.late).toEqual([
      { part: 'pods', detail: 'not read within the 100 ms deadline: 3 pages read' },
    ]);
  });

  it('shares one deadline between its parts (the second has only what is left)', async () => {
    const d = new ViewDeadline('Findings', 150);
    await settled(d.within('a', after(100, 1)));
    const t0 = Date.now();
    expect((await settled(d.within('b', after(100, 2)))).ok).toBe(false);
    expect(Date.now() - t0).toBeLessThan(90);
  });

  it('a needed part that is late is a 503 naming it, with Retry-After', async () => {
    const d = new ViewDeadline('Timelines', 50);
    const e: unknown = await settled(
      d.need('pods and events', after(1_000, 0)).catch((x: unknown) => x),
    );
    expect(isRequestError(e)).toBe(true);
    if (!isRequestError(e)) return;
    expect(e.status).toBe(503);
    expect(e.code).toBe('VIEW_LATE');
    expect(e.message).toMatch(/^Timelines answered at its 50 ms deadline without pods and events/);
    expect(e.headers['Retry-After']).toBe('5');
  });

  it('a part that fails fails as without a deadline; a late one that fails later is no crash', async () => {
    const d = new ViewDeadline('Incidents', 50);
    await expect(d.within('logs', Promise.reject(new Error('403 Forbidden')))).rejects.toThrow(
      '403 Forbidden',
    );
    const failsLate = new Promise((_, reject) => setTimeout(() => reject(new Error('boom')), 100));
    expect((await settled(d.within('slow', failsLate))).ok).toBe(false);
    await settled(after(150, null));
  });

  it('a late list is taken from its last read, named with its age; with none it is a 503', async () => {
    const reads = new LastReads();
    const first = new ViewDeadline('Overview', 50);
    const e: unknown = await settled(
      first
        .needOrLast('Istio config', reads, 'istio-config', after(120, ['sc-1']))
        .catch((x: unknown) => x),
    );
    expect(isRequestError(e) && e.code).toBe('VIEW_LATE');
    // the first read goes on and is kept for the next view
    await settled(after(150, null));
    expect(reads.last('istio-config')?.value).toEqual(['sc-1']);
    const next = new ViewDeadline('Findings', 50);
    const v = await settled(
      next.needOrLast('Istio config', reads, 'istio-config', after(500, ['sc-2'])),
    );
    expect(v).toEqual(['sc-1']);
    expect(next.late).toHaveLength(1);
    expect(next.late[0]?.detail).toMatch(
      /^not read within the 50 ms deadline; shown as read \d+ s before \(a new read is still running\)$/,
    );
    // a read in time is the read, and becomes the last
    const third = new ViewDeadline('Scoping', 200);
    expect(
      await settled(third.needOrLast('Istio config', reads, 'istio-config', after(5, ['sc-3']))),
    ).toEqual(['sc-3']);
    expect(third.late).toEqual([]);
  });

  it('stops waiting before the deadline by the margin its answer needs (a tenth, at most 2 s)', async () => {
    for (const [deadline, waits] of [
      [10_000, 9_000],
      [30_000, 28_000],
    ] as const) {
      const d = new ViewDeadline('Scoping', deadline);
      const t0 = Date.now();
      const r = await Promise.all([
        d.within('proxies', after(60_000, 1)),
        vi.advanceTimersByTimeAsync(waits),
      ]);
      expect(r[0].ok).toBe(false);
      expect(Date.now() - t0).toBe(waits);
      expect(d.late[0]?.detail).toBe(`not read within the ${deadline} ms deadline`);
    }
  });

  it('waits for a part it does well without only its share of the time left', async () => {
    const d = new ViewDeadline('Incidents', 200, Date.now, 0);
    const t0 = Date.now();
    const pending = d.withinShare('pod history', after(1_000, 1), 0.25, () => 'Events listing');
    await vi.advanceTimersByTimeAsync(50);
    const r = await pending;
    expect(Date.now() - t0).toBe(50);
    expect(r.ok).toBe(false);
    expect(d.late).toEqual([
      {
        part: 'pod history',
        detail: 'not in after 50 ms (its share of the 200 ms deadline): Events listing',
      },
    ]);
    expect(d.remaining()).toBe(150);
  });
});

/** A feed whose first list reads `pages` pages of 500 objects, one every `everyMs`. */
function pagedFeed(
  pages: number,
  everyMs: number,
  opts: { remaining?: boolean; fail?: boolean } = {},
) {
  const status = {
    listed: false,
    progress: { objects: 0, remaining: null as number | null, startedAt: Date.now() },
  };
  let read = 0;
  const listed = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      read++;
      status.progress.objects = read * 500;
      status.progress.remaining = opts.remaining === false ? null : (pages - read) * 500;
      if (read < pages) return;
      clearInterval(timer);
      if (opts.fail) return reject(new Error('pods: 403 Forbidden'));
      status.listed = true;
      resolve();
    }, everyMs);
  });
  return { currentStatus: status, whenListed: () => listed };
}

describe('firstListWithin', () => {
  it('waits for a list that ends within the wait', async () => {
    expect(await settled(firstListWithin(pagedFeed(3, 20), 2_000))).toBe(true);
  });

  it('does not wait out the wait for a list whose pace says it cannot end by then', async () => {
    const t0 = Date.now();
    // 100 pages of 50 ms: about 5 s, against a 2 s wait
    expect(await settled(firstListWithin(pagedFeed(100, 50), 2_000))).toBe(false);
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('waits the whole wait when the server does not say how much remains', async () => {
    const t0 = Date.now();
    expect(await settled(firstListWithin(pagedFeed(100, 50, { remaining: false }), 300))).toBe(
      false,
    );
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('a list that fails within the wait fails; one that fails after it is no crash', async () => {
    await expect(settled(firstListWithin(pagedFeed(2, 20, { fail: true }), 2_000))).rejects.toThrow(
      /403 Forbidden/,
    );
    expect(
      await settled(firstListWithin(pagedFeed(4, 50, { fail: true, remaining: false }), 60)),
    ).toBe(false);
    await settled(after(250, null));
  });
});
