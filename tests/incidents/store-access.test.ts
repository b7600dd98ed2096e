/**
 * Who sees the failing requests recorded in the shared store: two users of one meshdx (header
 * mode, impersonated against a simulated API server that applies RBAC like kube-apiserver),
 * both allowed to list pods cluster-wide; one may read proxy logs everywhere, the other only in
 * `shop`. The store holds failing requests recorded from a `shop` client and from another
 * namespace's client; each user sees exactly what they could read live. A frozen view opens
 * under the same rule as the live one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { POST as freezePost } from '../../app/api/snapshots/route';
import { GET as snapshotGet } from '../../app/api/snapshots/[id]/route';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { createLineParser } from '../../lib/accesslog/parser';
import { failureOf } from '../../lib/incidents/failure-record';
import { IpLedger } from '../../lib/ledger/ledger';
import { SIM_TOKEN } from '../../server/sim/api/kubeconfig';
import { baseRuntimeFor } from '../../server/runtime/registry';
import {
  meshdxInHeaderMode,
  restoreMeshdx,
  startAuthCluster,
  type AuthCluster,
} from '../auth/harness';
import { logLine } from '../data/incidents/logs';
import { requireKubectl } from '../sim/kubectl-harness';

requireKubectl('the store access test (it applies deploy/ RBAC rendered by kubectl)');

const saved = { ...process.env };
let c: AuthCluster;
const NOW = Date.parse('2026-11-01T12:00:00Z');
const OTHER = 'payments-team';

async function create(path: string, obj: Record<string, unknown>): Promise<void> {
  const res = await fetch(c.sim.url + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${SIM_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(obj),
  });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
}

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[] };

beforeAll(async () => {
  c = await startAuthCluster();
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  // meshdx-viewer without pods/log: lists every namespace's pods, reads no proxy log
  const viewer = (await (
    await fetch(`${c.sim.url}${rbac}/clusterroles/meshdx-viewer`, {
      headers: { Authorization: `Bearer ${SIM_TOKEN}` },
    })
  ).json()) as { rules: Rule[] };
  const rules = viewer.rules.map((r) => ({
    ...r,
    resources: r.resources.filter((x) => x !== 'pods/log'),
  }));
  await create(`${rbac}/clusterroles`, { metadata: { name: 'meshdx-lister' }, rules });
  await create(`${rbac}/clusterrolebindings`, {
    metadata: { name: 'team-shop-lists' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'meshdx-lister' },
    subjects: [{ kind: 'Group', name: 'team-shop-oncall' }],
  });
  // ... and reads shop's logs
  await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/shop/rolebindings`, {
    metadata: { name: 'team-shop-reads', namespace: 'shop' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'meshdx-viewer' },
    subjects: [{ kind: 'Group', name: 'team-shop-oncall' }],
  });
  meshdxInHeaderMode(c, saved);
}, 60_000);

afterAll(() => restoreMeshdx(saved, c));

function recorded(proxy: string, at: number) {
  const line = logLine(at, 503, 'UC', '10.77.0.9:8080');
  const r = createLineParser().push(line);
  if (r.kind !== 'record') throw new Error('not a record');
  return failureOf(line, r.record, { read: 'otlp', proxy, proxyUid: null }, new IpLedger());
}

const BASE = 'http://127.0.0.1:3000';
const QUERY = `?from=${new Date(NOW - 30 * 60_000).toISOString()}&to=${new Date(NOW).toISOString()}`;
const as = (user: string, groups: string) => ({
  'X-Forwarded-User': user,
  'X-Forwarded-Groups': groups,
});

async function viewAs(user: string, groups: string) {
  const res = await incidentsGet(
    new Request(`${BASE}/api/incidents${QUERY}`, { headers: as(user, groups) }),
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return IncidentsViewSchema.parse(await res.json());
}

/** Erin (who reads everything) freezes a view; the answer of opening it as another user. */
async function frozenByErin(view: 'incidents' | 'timelines', query: string) {
  const frozen = await freezePost(
    new Request(`${BASE}/api/snapshots`, {
      method: 'POST',
      headers: { ...as('erin', 'meshdx-viewers'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ view, query }),
    }),
  );
  expect(frozen.status, await frozen.clone().text()).toBe(200);
  const { id } = (await frozen.json()) as { id: string };
  return (user: string, groups: string) =>
    snapshotGet(new Request(`${BASE}/api/snapshots/${id}`, { headers: as(user, groups) }), {
      params: Promise.resolve({ id }),
    });
}

describe('recorded failing requests are shown only where the user may read the logs', () => {
  it('a user who reads every log sees both; one who reads shop only sees shop and is told what is not shown', async () => {
    const store = baseRuntimeFor(null).store;
    expect(
      store.failures.record(
        [
          recorded('shop/checkout-zz', NOW - 20 * 60_000),
          recorded(`${OTHER}/web-zz`, NOW - 19 * 60_000),
        ],
        NOW,
      ).added,
    ).toBe(2);

    const all = await viewAs('erin', 'meshdx-viewers');
    const allSources = all.requests.map((r) => r.source);
    expect(allSources).toEqual(expect.arrayContaining(['shop/checkout-zz', `${OTHER}/web-zz`]));
    expect(all.memory?.hiddenNamespaces).toEqual([]);

    const shop = await viewAs('lena', 'team-shop-oncall');
    const shopSources = shop.requests.map((r) => r.source);
    expect(shopSources).toContain('shop/checkout-zz');
    expect(shopSources).not.toContain(`${OTHER}/web-zz`);
    // nothing of another namespace, whichever read recorded it
    expect(shopSources.filter((s) => !s.startsWith('shop/'))).toEqual([]);
    expect(shop.memory?.hiddenNamespaces).toContain(OTHER);
    expect(shop.memory?.text).toMatch(
      new RegExp(`not shown: .*${OTHER}.*whose proxy logs you may not read`),
    );
    expect(shop.memory?.failing).toBeLessThan(all.memory?.failing ?? 0);
    expect(shop.totals.failing).toBe(shop.memory?.failing);
  }, 60_000);

  it("another user's snapshot of the window opens only for who may read every namespace it shows", async () => {
    const open = await frozenByErin('incidents', QUERY);
    expect((await open('erin', 'meshdx-viewers')).status).toBe(200);
    const refused = await open('lena', 'team-shop-oncall');
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('SNAPSHOT_NOT_READABLE');
    expect(body.error.message).toContain(OTHER);
  }, 60_000);

  it('a Timelines snapshot (pods and their history) opens only for who may list pods cluster-wide', async () => {
    const open = await frozenByErin('timelines', '');
    expect((await open('erin', 'meshdx-viewers')).status).toBe(200);
    // lena lists every namespace's pods (and reads shop's logs only): the live view is hers too
    expect((await open('lena', 'team-shop-oncall')).status).toBe(200);
    // a user bound to nothing: the API server refuses their pod list
    const refused = await open('mallory', 'no-such-team');
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('SNAPSHOT_NOT_READABLE');
    expect(body.error.message).toContain('list pods cluster-wide');
    expect(body.error.message).toMatch(/forbidden/i);
  }, 60_000);
});
