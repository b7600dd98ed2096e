import { expect, test } from '@playwright/test';
import { KEEP_ALIVE_MS } from '../test-support/next-start';
import { base, PORTS, snap } from './support';

test('a bad KUBECONFIG path is named on the page and in the API, and the server keeps running', async ({
  page,
  request,
}) => {
  const url = base(PORTS.badKubeconfig);
  const res = await request.get(`${url}/api/inventory`);
  expect(res.status()).toBe(503);
  // idle connections outlive Node clients' 5 s socket reuse (test-support/next-start.ts)
  expect(res.headers()['keep-alive']).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
  const body = (await res.json()) as { error: { code: string; message: string; hint?: string } };
  expect(body.error.code).toBe('KUBECONFIG_NOT_FOUND');
  expect(body.error.message).toContain('/nonexistent/meshdx/kubeconfig');
  expect(body.error.hint).toBeTruthy();
  await page.goto(`${url}/proxies`);
  await expect(page.getByTestId('error-panel')).toContainText('/nonexistent/meshdx/kubeconfig');
  await expect(page.getByTestId('error-panel')).toContainText('KUBECONFIG_NOT_FOUND');
  await expect(page.getByTestId('cluster-label')).toHaveText('no cluster');
  await snap(page, 'error-bad-kubeconfig');
  expect((await request.get(`${url}/api/cluster`)).ok()).toBe(true);
});

test('an unreachable API server is reported as unreachable, with the fix', async ({
  page,
  request,
}) => {
  const url = base(PORTS.unreachable);
  const res = await request.get(`${url}/api/inventory`);
  expect(res.status()).toBe(502);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('API_UNREACHABLE');
  expect(body.error.message).toContain('127.0.0.1:9');
  await page.goto(`${url}/`);
  await expect(page.getByTestId('error-panel')).toContainText('API_UNREACHABLE');
  await expect(page.getByTestId('cluster-badge')).toContainText('unreachable');
  await snap(page, 'error-unreachable');
  expect((await request.get(`${url}/api/cluster`)).ok()).toBe(true);
});

test('an invalid pod name is a 400 and a clear page error, never an API request', async ({
  page,
  request,
}) => {
  const url = base(PORTS.demo);
  for (const bad of ['Bad_Name', '..%2F..%2Fsecrets', 'a%20b']) {
    const res = await request.get(`${url}/api/pods/default/${bad}`);
    expect(res.status()).toBe(400);
    expect(res.headers()['keep-alive']).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVALID_PARAMETER');
    expect(body.error.message).toMatch(/^name: .* is not a pod name/);
  }
  const ns = await request.get(`${url}/api/pods/Not-A-Namespace/x`);
  expect(((await ns.json()) as { error: { message: string } }).error.message).toMatch(
    /^namespace: "Not-A-Namespace" is not a namespace name/,
  );
  await page.goto(`${url}/pods/default/Bad_Name`);
  await expect(page.getByTestId('error-panel')).toContainText('INVALID_PARAMETER');
  await snap(page, 'error-invalid-pod-name');
  expect((await request.get(`${url}/api/cluster`)).ok()).toBe(true);
});

test('a link with a parameter meshdx cannot use, or a namespace the cluster does not have, is named in the page and the API', async ({
  page,
  request,
}) => {
  const url = base(PORTS.demo);
  for (const [path, code, text] of [
    [
      '/findings?severity=fatal',
      'INVALID_PARAMETER',
      'severity: "fatal" is not error, warning or info',
    ],
    ['/proxies?sort=bogus', 'INVALID_PARAMETER', 'sort: cannot sort by "bogus"'],
    [
      '/scoping?namespace=does-not-exist',
      'NAMESPACE_NOT_FOUND',
      'namespace: "does-not-exist" does not exist',
    ],
  ] as const) {
    await page.goto(`${url}${path}`);
    const panel = page.getByTestId('error-panel');
    await expect(panel, path).toContainText(code);
    await expect(panel, path).toContainText(text);
  }
  await snap(page, 'error-unknown-namespace');
  for (const [path, status, code] of [
    ['/api/findings?namspace=shop', 400, 'INVALID_PARAMETER'],
    ['/api/proxies/fleet?stream=1&namespace=does-not-exist', 404, 'NAMESPACE_NOT_FOUND'],
    ['/api/ztunnels/does-not-exist/ztunnel-0', 404, 'NAMESPACE_NOT_FOUND'],
    ['/api/scoping?refresh=yes', 400, 'INVALID_PARAMETER'],
  ] as const) {
    const res = await request.get(`${url}${path}`);
    expect(res.status(), path).toBe(status);
    expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe(code);
  }
});
