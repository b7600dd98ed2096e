/**
 * The snapshot list shows a user only the snapshots they may open: the same gate as opening one
 * (server/screens/snapshots readableSnapshot), so the list does not tell a user without RBAC
 * which views were frozen, by whom, with which filters (the url), and when.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listGet, POST as freezePost } from '../../app/api/snapshots/route';
import { GET as snapshotGet } from '../../app/api/snapshots/[id]/route';
import { createLineParser } from '../../lib/accesslog/parser';
import { failureOf } from '../../lib/incidents/failure-record';
import { IpLedger } from '../../lib/ledger/ledger';
import { baseRuntimeFor } from '../../server/runtime/registry';
import {
  meshdxInHeaderMode,
  restoreMeshdx,
  startAuthCluster,
  type AuthCluster,
} from '../auth/harness';
import { logLine } from '../data/incidents/logs';
import { requireKubectl } from '../sim/kubectl-harness';

requireKubectl('the snapshot list test (it applies deploy/ RBAC rendered by kubectl)');

const saved = { ...process.env };
let c: AuthCluster;
const NOW = Date.parse('2026-11-01T12:00:00Z');
const BASE = 'http://127.0.0.1:3000';
const QUERY = `?from=${new Date(NOW - 30 * 60_000).toISOString()}&to=${new Date(NOW).toISOString()}`;

beforeAll(async () => {
  c = await startAuthCluster();
  meshdxInHeaderMode(c, saved);
}, 60_000);

afterAll(() => restoreMeshdx(saved, c));

const as = (user: string, groups: string) => ({
  'X-Forwarded-User': user,
  'X-Forwarded-Groups': groups,
});

async function freeze(view: 'incidents' | 'timelines', query: string): Promise<string> {
  const res = await freezePost(
    new Request(`${BASE}/api/snapshots`, {
      method: 'POST',
      headers: { ...as('alice', 'meshdx-viewers'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ view, query }),
    }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function listed(user: string, groups: string): Promise<string[]> {
  const res = await listGet(new Request(`${BASE}/api/snapshots`, { headers: as(user, groups) }));
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { snapshots: { id: string }[] }).snapshots.map((s) => s.id);
}

const opens = async (id: string, user: string, groups: string) =>
  (
    await snapshotGet(new Request(`${BASE}/api/snapshots/${id}`, { headers: as(user, groups) }), {
      params: Promise.resolve({ id }),
    })
  ).status;

describe('the snapshot list', () => {
  it('shows a user only the snapshots they may open', async () => {
    // a failing request recorded from a shop client: the Incidents snapshot shows it
    const line = logLine(NOW - 20 * 60_000, 503, 'UC', '10.77.0.9:8080');
    const r = createLineParser().push(line);
    if (r.kind !== 'record') throw new Error('not a record');
    baseRuntimeFor(null).store.failures.record(
      [
        failureOf(
          line,
          r.record,
          { read: 'otlp', proxy: 'shop/checkout-zz', proxyUid: null },
          new IpLedger(),
        ),
      ],
      NOW,
    );
    const incidents = await freeze('incidents', QUERY);
    const timelines = await freeze('timelines', '');

    expect(await listed('alice', 'meshdx-viewers')).toEqual(
      expect.arrayContaining([incidents, timelines]),
    );
    expect(await opens(incidents, 'alice', 'meshdx-viewers')).toBe(200);

    // a user bound to nothing opens neither, and the list names neither
    expect(await opens(incidents, 'mallory', 'no-such-team')).toBe(403);
    expect(await opens(timelines, 'mallory', 'no-such-team')).toBe(403);
    expect(await listed('mallory', 'no-such-team')).toEqual([]);
  }, 90_000);
});
