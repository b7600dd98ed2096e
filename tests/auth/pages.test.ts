import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { HydrationBoundary, type DehydratedState } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorPanel } from '../../components/ui/ErrorPanel';
import { POST as sessionPost } from '../../app/api/session/route';
import type { RequestScope } from '../../server/auth/identity';
import { resetAuthState, scopeOf } from '../../server/auth/request';
import { resetRegistry, runningUserRuntimes, runtimeFor } from '../../server/runtime/registry';
import { getInventory } from '../../server/screens/overview/inventory';
import { getFleet } from '../../server/screens/proxies/fleet';
import { requireKubectl } from '../sim/kubectl-harness';
import { startAuthCluster, USERS, type AuthCluster } from './harness';
import { podKey } from '../../lib/refs/pod-ref';
import { GATHER_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the page identity tests (they apply deploy/ RBAC rendered by kubectl)');

/**
 * Every page resolves its scope (context and user) at the edge and hands it to the use cases
 * as a value: rendered as a signed-in user in token and in header mode, each page answers with
 * its data (its prefetched queries succeed, no error panel) and the API server sees that user.
 * Next's headers() and redirect() are the only parts of Next stood in for.
 */
const next = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock('next/headers', () => ({ headers: () => Promise.resolve(next.headers) }));
vi.mock('next/navigation', async (original) => ({
  ...(await original<typeof import('next/navigation')>()),
  redirect: (url: string) => {
    throw new Error(`redirect to ${url}`);
  },
}));

type Params = Record<string, string | string[] | undefined>;
type PageFn = (props: {
  searchParams: Promise<Params>;
  params: Promise<{ namespace: string; name: string }>;
}) => Promise<ReactNode>;

const saved = { ...process.env };
let c: AuthCluster;
let meshedPod: { namespace: string; name: string };

function configure(mode: 'token' | 'header'): void {
  process.env = {
    ...saved,
    MESHDX_DB: ':memory:',
    MESHDX_AUTH: mode,
    MESHDX_KUBECONFIG: c.kubeconfigFor(USERS.meshdx.token),
  };
  delete process.env.MESHDX_CONTEXT;
  resetRegistry();
  resetAuthState();
}

async function tokenCookie(token: string): Promise<string> {
  const res = await sessionPost(
    new Request('http://127.0.0.1:3000/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    }),
  );
  const value = /^meshdx_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (res.status !== 200 || !value) throw new Error(`sign-in failed: ${await res.text()}`);
  return `meshdx_session=${value}`;
}

/** The elements of a page's tree (server components are already resolved: plain elements). */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<Record<string, unknown>>(node)) return [];
  return [node, ...elements(node.props.children as ReactNode)];
}

interface Rendered {
  errors: { code?: unknown; message?: unknown }[];
  queries: { key: string; status: string; error: unknown }[];
}

async function render(
  page: string,
  search: Params = {},
  params = { namespace: '', name: '' },
): Promise<Rendered> {
  const mod = (await import(page)) as { default: PageFn };
  const tree = await mod.default({
    searchParams: Promise.resolve(search),
    params: Promise.resolve(params),
  });
  const els = elements(tree);
  return {
    errors: els.filter((e) => e.type === ErrorPanel).map((e) => e.props),
    queries: els
      .filter((e) => e.type === HydrationBoundary)
      .flatMap((e) => (e.props.state as DehydratedState).queries)
      .map((q) => ({
        key: JSON.stringify(q.queryKey),
        status: q.state.status,
        error: q.state.error,
      })),
  };
}

const NO_PARAMS = () => ({ namespace: '', name: '' });
const NO_SEARCH = () => ({});

/**
 * route, module, search params, route params, how many queries the page prefetches (a range
 * where one of them comes only when it is in by then).
 */
const PAGES: [
  string,
  string,
  () => Params,
  () => { namespace: string; name: string },
  number | [number, number],
][] = [
  // the inventory, and the findings' first answer when it is in with it (else the browser asks)
  ['/', '../../app/page', NO_SEARCH, NO_PARAMS, [1, 2]],
  // the fleet's first page once the pods and Events are listed (else the browser asks for it)
  ['/timelines', '../../app/(views)/timelines/page', NO_SEARCH, NO_PARAMS, [0, 1]],
  [
    '/timelines?pod=NS/NAME',
    '../../app/(views)/timelines/page',
    () => ({ pod: podKey(meshedPod.namespace, meshedPod.name) }),
    NO_PARAMS,
    [1, 2],
  ],
  // a fleet already scanned (below) is served with the page
  ['/proxies', '../../app/(views)/proxies/page', NO_SEARCH, NO_PARAMS, 1],
  ['/scoping', '../../app/(views)/scoping/page', NO_SEARCH, NO_PARAMS, 1],
  ['/incidents', '../../app/(views)/incidents/page', NO_SEARCH, NO_PARAMS, 3],
  ['/findings', '../../app/(views)/findings/page', NO_SEARCH, NO_PARAMS, 1],
  // the detail page renders its data itself (no prefetch): an error would be its ErrorPanel
  [
    '/pods/NS/NAME',
    '../../app/(views)/pods/[namespace]/[name]/page',
    NO_SEARCH,
    () => meshedPod,
    0,
  ],
];

/**
 * Renders every page as `scope`'s user. A query that failed is left out of the dehydrated
 * state (only successes are sent to the browser), so each page's count of queries is checked.
 */
async function expectEveryPageAnswers(scope: RequestScope): Promise<void> {
  for (const [route, page, search, params, prefetched] of PAGES) {
    // Proxies serves a fleet scanned within its 15 s of freshness, as after a look at it: a scan
    // just made, so the render comes well within them (a cached one, maybe 14 s old, went stale
    // while a loaded machine rendered the page, and Proxies then streamed it)
    if (route === '/proxies') await getFleet(scope, { refresh: true });
    const r = await render(page, search(), params());
    expect(r.errors, `${route} shows an error`).toEqual([]);
    const [least, most] = typeof prefetched === 'number' ? [prefetched, prefetched] : prefetched;
    expect(r.queries.length, route).toBeGreaterThanOrEqual(least);
    expect(r.queries.length, route).toBeLessThanOrEqual(most);
    expect(
      r.queries.map((q) => q.status),
      route,
    ).toEqual(Array(r.queries.length).fill('success'));
  }
}

describe('pages act as the signed-in user, passed as a value', () => {
  beforeAll(async () => {
    c = await startAuthCluster();
    const pod = c.sim.store
      .list<{
        metadata: { name: string; namespace: string };
        spec?: { containers?: { name: string }[] };
        status?: { phase?: string };
      }>('pods')
      .find(
        (p) =>
          p.metadata.namespace === 'shop' &&
          p.status?.phase === 'Running' &&
          (p.spec?.containers ?? []).some((x) => x.name === 'istio-proxy'),
      );
    if (!pod) throw new Error('no running meshed pod in shop');
    meshedPod = { namespace: pod.metadata.namespace, name: pod.metadata.name };
  }, 60_000);
  afterEach(() => {
    resetRegistry();
    resetAuthState();
    process.env = { ...saved };
  });
  afterAll(async () => c?.close());

  it(
    'token mode: every page answers with its data, fetched with the user token',
    async () => {
      configure('token');
      next.headers = new Headers({ cookie: await tokenCookie(USERS.alice.token) });
      await expectEveryPageAnswers(scopeOf(next.headers, {}));
      const seen = (await c.info()).auth.users.alice ?? {};
      expect(seen['list pods']).toBeGreaterThanOrEqual(1);
      expect(runningUserRuntimes()).toHaveLength(1);
    },
    GATHER_GUARD_MS,
  );

  it(
    'header mode: every page answers with its data, as the impersonated user',
    async () => {
      configure('header');
      next.headers = new Headers({
        'X-Forwarded-User': 'bob@example.com',
        'X-Forwarded-Groups': 'meshdx-viewers',
      });
      await expectEveryPageAnswers(scopeOf(next.headers, {}));
      const info = await c.info();
      expect(info.auth.impersonated['bob@example.com']?.by).toEqual([USERS.meshdx.name]);
      expect(info.auth.users['bob@example.com']?.['list pods']).toBeGreaterThanOrEqual(1);
    },
    GATHER_GUARD_MS,
  );

  it('a page without a user goes to the login; a bad ?context= is shown, named, on the page', async () => {
    configure('token');
    next.headers = new Headers();
    await expect(render('../../app/(views)/timelines/page')).rejects.toThrow(
      'redirect to /login?reason=NO_SESSION',
    );
    next.headers = new Headers({ cookie: await tokenCookie(USERS.alice.token) });
    const r = await render('../../app/(views)/findings/page', { context: 'no such\ncontext' });
    expect(r.errors).toMatchObject([
      { code: 'INVALID_PARAMETER', message: 'context: "no such\\ncontext" is not a context name' },
    ]);
  }, 60_000);

  it('the scope is a value: a use case called outside any request acts as the user it is given', async () => {
    configure('header');
    const bob: RequestScope = {
      context: null,
      identity: { mode: 'header', user: 'bob@example.com', groups: ['meshdx-viewers'] },
    };
    const carol: RequestScope = {
      context: null,
      identity: { mode: 'header', user: 'carol', groups: [] },
    };
    expect(runtimeFor(bob)).not.toBe(runtimeFor(carol));
    expect(runtimeFor(bob)).toBe(runtimeFor({ ...bob }));
    // both at once: each call is made as its own scope's user, nothing leaks between them
    const [forBob, forCarol] = await Promise.allSettled([getInventory(bob), getInventory(carol)]);
    expect(forBob.status).toBe('fulfilled');
    expect(forCarol).toMatchObject({ status: 'rejected', reason: { status: 403 } });
    const info = await c.info();
    expect(info.auth.impersonated.carol?.by).toEqual([USERS.meshdx.name]);
    expect(info.auth.users['bob@example.com']?.['list pods']).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
