import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { waitForData } from '../cli/report/capture';
import { base, PORTS, snap } from './support';
import { podKeyOfObject } from '../lib/refs/pod-ref';

/**
 * Per-user identity in the browser, against simulated clusters that check bearer tokens and
 * RBAC like kube-apiserver (e2e/fixtures/identity-server.ts): token sign-in, refusals
 * explained, sign-out; impersonation of the user an authenticating proxy names.
 */
interface Fixture {
  simUrl: string;
  users: Record<'alice' | 'nina' | 'meshdx', { token: string; name: string; groups: string[] }>;
}
const fixture = (mode: 'token' | 'header'): Fixture =>
  JSON.parse(
    fs.readFileSync(
      path.join(import.meta.dirname, '..', 'test-results', `identity-${mode}.json`),
      'utf8',
    ),
  ) as Fixture;

interface SimAuthInfo {
  auth: {
    users: Record<string, Record<string, number>>;
    impersonated: Record<string, { by: string[]; groups: string[] }>;
  };
}
const simInfo = async (mode: 'token' | 'header') =>
  (await (await fetch(`${fixture(mode).simUrl}/_sim/info`)).json()) as SimAuthInfo;

const tokenApp = base(PORTS.identityToken);
const headerApp = base(PORTS.identityHeader);

async function signIn(page: Page, token: string): Promise<void> {
  await page.getByLabel('Kubernetes bearer token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('token mode', () => {
  test('no session: the views send you to the login, the API answers 401 naming the mode', async ({
    page,
  }) => {
    await page.goto(`${tokenApp}/proxies`);
    await expect(page).toHaveURL(/\/login\?reason=NO_SESSION$/);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await expect(page.getByTestId('login-reason')).toContainText('Sign in');
    await snap(page, 'identity-login');
    const api = await fetch(`${tokenApp}/api/inventory`);
    expect(api.status).toBe(401);
    expect(await api.json()).toMatchObject({
      error: {
        code: 'NO_SESSION',
        message: expect.stringContaining('MESHDX_AUTH=token') as unknown,
      },
    });
  });

  test('a refused token is explained on the login page, and the token appears nowhere', async ({
    page,
  }) => {
    await page.goto(`${tokenApp}/login`);
    await signIn(page, 'a-revoked-token-value');
    await expect(page).toHaveURL(/\/login\?reason=TOKEN_REFUSED$/);
    await expect(page.getByTestId('login-reason')).toContainText('refused that token (401');
    expect(page.url()).not.toContain('revoked');
    expect(await page.content()).not.toContain('a-revoked-token-value');
    const cookies = await page.context().cookies();
    expect(cookies.filter((c) => c.name === 'meshdx_session')).toEqual([]);
  });

  test('a valid token sees Overview signed in as its user, every call made with it; sign-out ends it', async ({
    page,
  }) => {
    const { users } = fixture('token');
    await page.goto(`${tokenApp}/`);
    await signIn(page, users.alice.token);
    await expect(page).toHaveURL(`${tokenApp}/`);
    await expect(page.getByTestId('whoami-text')).toHaveText(
      'signed in as alice (meshdx-viewers) · token',
    );
    await expect(page.getByTestId('stat-pods')).toContainText(/\d+/);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'meshdx_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.value).not.toContain(users.alice.token);
    expect(await page.content()).not.toContain(users.alice.token);
    await snap(page, 'identity-token-overview');
    // the simulated API server saw alice's own token on the view's calls
    const seen = (await simInfo('token')).auth.users.alice ?? {};
    expect(seen['list pods']).toBeGreaterThanOrEqual(1);
    expect(seen['list namespaces']).toBeGreaterThanOrEqual(1);

    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/login\?reason=SIGNED_OUT$/);
    await page.goto(`${tokenApp}/`);
    await expect(page).toHaveURL(/\/login\?reason=NO_SESSION$/);
  });

  test('a user without cluster-wide reads gets the 403 with the missing permission, not an empty view', async ({
    page,
  }) => {
    const { users } = fixture('token');
    await page.goto(`${tokenApp}/login`);
    await signIn(page, users.nina.token);
    await expect(page.getByTestId('whoami-text')).toHaveText(
      'signed in as nina (team-shop) · token',
    );
    const panel = page.getByTestId('error-panel').first();
    await expect(panel).toContainText('FORBIDDEN');
    await expect(panel).toContainText(/User "nina" cannot list resource "\w+" in API group ""/);
    await expect(panel).toContainText(
      /nina lacks: list \w+ \(API group core\) at the cluster scope/,
    );
    await expect(panel).toContainText('kubectl auth can-i list');
    await expect(page.getByTestId('stat-pods')).toHaveCount(0);
    await snap(page, 'identity-token-forbidden');
  });
});

test.describe('header mode', () => {
  test('the user the proxy names is shown and impersonated on the API calls', async ({
    browser,
  }) => {
    const context = await browser.newContext({
      extraHTTPHeaders: {
        'X-Forwarded-User': 'bob@example.com',
        'X-Forwarded-Groups': 'meshdx-viewers,oncall',
      },
    });
    const page = await context.newPage();
    await page.goto(`${headerApp}/`);
    await expect(page.getByTestId('whoami-text')).toHaveText(
      'signed in as bob@example.com (meshdx-viewers, oncall) · impersonated via proxy',
    );
    await expect(page.getByTestId('stat-pods')).toContainText(/\d+/);
    await expect(page.getByTestId('logout')).toHaveCount(0);
    await snap(page, 'identity-header-overview');
    const info = await simInfo('header');
    const { users } = fixture('header');
    expect(info.auth.impersonated['bob@example.com']?.by).toEqual([users.meshdx.name]);
    expect(info.auth.users['bob@example.com']?.['list pods']).toBeGreaterThanOrEqual(1);
    await context.close();
  });

  test('a request around the proxy (no header) is refused with the reason', async () => {
    const page = await fetch(`${headerApp}/`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('expects an authenticating proxy');
    const api = await fetch(`${headerApp}/api/inventory`);
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe(
      'NO_PROXY_IDENTITY',
    );
  });
});

/** A running meshed pod of the identity cluster, read from its API server as meshdx. */
async function meshedPod(mode: 'token' | 'header'): Promise<string> {
  const { simUrl, users } = fixture(mode);
  const res = await fetch(`${simUrl}/api/v1/namespaces/shop/pods`, {
    headers: { Authorization: `Bearer ${users.meshdx.token}` },
  });
  const list = (await res.json()) as {
    items: {
      metadata: { namespace: string; name: string };
      spec: { containers: { name: string }[] };
      status: { phase?: string };
    }[];
  };
  const pod = list.items.find(
    (p) => p.status.phase === 'Running' && p.spec.containers.some((c) => c.name === 'istio-proxy'),
  );
  if (!pod) throw new Error(`no running meshed pod in shop (${res.status})`);
  return podKeyOfObject(pod);
}

/** Every page and detail route answers 200 and shows its data, no error panel. */
async function everyPageAnswers(page: Page, app: string, mode: 'token' | 'header') {
  const pod = await meshedPod(mode);
  const routes = [
    '/',
    '/timelines',
    `/timelines?pod=${pod}`,
    '/proxies',
    `/proxies?proxy=${pod}`,
    '/scoping',
    '/incidents',
    '/findings',
    `/pods/${pod}`,
  ];
  for (const route of routes) {
    const res = await page.goto(`${app}${route}`);
    expect(res?.status(), route).toBe(200);
    expect(page.url(), route).toBe(`${app}${route}`);
    expect(await waitForData(page, 30_000), route).toBeNull();
    await expect(page.getByTestId('error-panel'), route).toHaveCount(0);
    await expect(page.getByTestId('whoami-text'), route).toContainText(
      mode === 'token' ? 'signed in as alice' : 'signed in as bob@example.com',
    );
  }
}

// Every page and detail route in the browser, as a signed-in user. Header mode derives the
// user at the same edge and hands it to the same pages as a value: its every-page walk is
// tests/auth/pages.test.ts's (every page rendered as the impersonated user, against a
// token-checking API server), and in the browser 'header mode' above and the pod page below.
test('every page answers for a user signed in with a token', async ({ page }) => {
  test.setTimeout(240_000);
  const { users } = fixture('token');
  await page.goto(`${tokenApp}/login`);
  await signIn(page, users.alice.token);
  await expect(page.getByTestId('whoami-text')).toContainText('signed in as alice');
  await everyPageAnswers(page, tokenApp, 'token');
  await snap(page, 'identity-token-pod');
});

test('a detail page answers for the user an authenticating proxy names', async ({ browser }) => {
  const context = await browser.newContext({
    extraHTTPHeaders: {
      'X-Forwarded-User': 'bob@example.com',
      'X-Forwarded-Groups': 'meshdx-viewers',
    },
  });
  const page = await context.newPage();
  const route = `/pods/${await meshedPod('header')}`;
  const res = await page.goto(`${headerApp}${route}`);
  expect(res?.status(), route).toBe(200);
  expect(await waitForData(page, 30_000), route).toBeNull();
  // the panel's own words, when there is one: what the page could not show, and why
  expect(await page.getByTestId('error-panel').allInnerTexts(), route).toEqual([]);
  await expect(page.getByTestId('whoami-text')).toContainText('signed in as bob@example.com');
  await snap(page, 'identity-header-pod');
  await context.close();
});
