import { describe, expect, it } from 'vitest';
import { isRequestError } from '../../lib/api/request-error';
import { ViewDeadline } from './deadline';

const after = <T>(ms: number, v: T) => new Promise<T>((r) => setTimeout(() => r(v), ms));

describe('ViewDeadline', () => {
  it('gives a part that is in time, and names one that is late without waiting for it', async () => {
    const d = new ViewDeadline('Overview', 100);
    expect(await d.within('namespaces', after(5, 3))).toEqual({ ok: true, value: 3 });
    const t0 = Date.now();
    const r = await d.within('pods', after(2_000, 1), () => '3 pages read');
    expect(Date.now() - t0).toBeLessThan(400);
    expect(r.ok).toBe(false);
    expect(d.late).toEqual([
      { part: 'pods', detail: 'not read within the 100 ms deadline: 3 pages read' },
    ]);
  });

  it('shares one deadline between its parts (the second has only what is left)', async () => {
    const d = new ViewDeadline('Findings', 150);
    await d.within('a', after(100, 1));
    const t0 = Date.now();
    expect((await d.within('b', after(100, 2))).ok).toBe(false);
    expect(Date.now() - t0).toBeLessThan(90);
  });

  it('a needed part that is late is a 503 naming it, with Retry-After', async () => {
    const d = new ViewDeadline('Timelines', 50);
    const e: unknown = await d.need('pods and events', after(1_000, 0)).catch((x: unknown) => x);
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
    expect((await d.within('slow', failsLate)).ok).toBe(false);
    await after(150, null);
  });
});
