import { describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { GET as timelinesGet } from '../../app/api/timelines/route';
import { GET as liveGet } from '../../app/api/incidents/live/route';
import { expectError, url, useEdgeCluster } from '../edges/support';

/**
 * A Grafana data link (epoch ms from ${__from}/${__to}) and an alert annotation (now-1h) open
 * the same window as the RFC 3339 link, `now` on the cluster's clock (fixed at 12:00 here).
 */
useEdgeCluster('window-links');

const FROM_MS = Date.parse('2026-11-01T11:00:00Z');
const TO_MS = Date.parse('2026-11-01T12:00:00Z');

async function windowOf(q: string) {
  const res = await incidentsGet(new Request(url(`/api/incidents?${q}`)));
  expect(res.status, q).toBe(200);
  return ((await res.json()) as { window: unknown }).window;
}

describe('windows from where incidents start', () => {
  it('incidents: epoch ms and now-1h answer the RFC 3339 window', async () => {
    const iso = await windowOf('from=2026-11-01T11:00:00Z&to=2026-11-01T12:00:00Z');
    expect(iso).toEqual({ from: '2026-11-01T11:00:00.000Z', to: '2026-11-01T12:00:00.000Z' });
    expect(await windowOf(`from=${FROM_MS}&to=${TO_MS}`)).toEqual(iso);
    // the cluster's clock as meshdx learns it (Date headers): 12:00 and the seconds since
    const rel = (await windowOf('from=now-1h&to=now')) as { from: string; to: string };
    expect(Date.parse(rel.to) - Date.parse(rel.from)).toBe(3_600_000);
    expect(Math.abs(Date.parse(rel.to) - TO_MS)).toBeLessThan(10_000);
  }, 60_000);

  it('timelines: the same window from epoch ms as from RFC 3339', async () => {
    const a = await timelinesGet(
      new Request(url('/api/timelines?from=2026-11-01T11:00:00Z&to=2026-11-01T12:00:00Z')),
    );
    const b = await timelinesGet(new Request(url(`/api/timelines?from=${FROM_MS}&to=now`)));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const total = (r: unknown) => (r as { total: unknown }).total;
    expect(total(await b.json())).toEqual(total(await a.json()));
  }, 60_000);

  it('epoch seconds, months and rounding are a 400 naming the parameter', async () => {
    await expectError(
      await incidentsGet(new Request(url(`/api/incidents?from=${FROM_MS / 1000}`))),
      400,
      'INVALID_PARAMETER',
      'from',
    );
    await expectError(
      await timelinesGet(new Request(url('/api/timelines?to=now-1M'))),
      400,
      'INVALID_PARAMETER',
      'to',
    );
    await expectError(
      await liveGet(new Request(url('/api/incidents/live?since=now/d'))),
      400,
      'INVALID_PARAMETER',
      'since',
    );
  }, 60_000);
});
