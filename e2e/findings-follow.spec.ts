import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { l7PolicyYaml } from '../test-support/l7-policy';
import { base, DEMO_DATA, PORTS, snap } from './support';

const run = promisify(execFile);

/**
 * An ambient L7 AuthorizationPolicy (an HTTP method, bound by selector) applied with kubectl to
 * the clock demo's mesh-ambient shows on an open Findings page without a reload: the server's
 * config watch hears it and the page, polling the revision, asks for the next report. The time
 * it took is written beside the test's results (the 2 s target is `findings.apply-to-view` in
 * `npm run bench`, not a timed test).
 */
test('an L7 AuthorizationPolicy applied with kubectl shows on an open Findings page', async ({
  page,
}) => {
  const clock = base(PORTS.clockDemo);
  const kubeconfig = path.join(DEMO_DATA.clockDemo, 'sim-demo.kubeconfig');
  const name = 'e2e-get-only';
  const kubectl = (input: string | null, ...args: string[]) => {
    const p = run('kubectl', ['--kubeconfig', kubeconfig, ...args]);
    if (input !== null) p.child.stdin?.end(input);
    return p;
  };
  await page.goto(`${clock}/findings?code=MDX0601`);
  const list = page.getByTestId('findings-list');
  // the report is in (the demo has no MDX0601 of its own)
  await expect(page.getByText(/Findings report made at/)).toBeVisible();
  const row = list.locator('tr[data-code="MDX0601"]', { hasText: name });
  await expect(row).toHaveCount(0);
  await kubectl(l7PolicyYaml(name), 'apply', '-f', '-');
  const applied = Date.now();
  try {
    await expect(row.first()).toBeVisible({ timeout: 30_000 });
    test.info().annotations.push({
      type: 'apply-to-view',
      description: `${Date.now() - applied} ms from kubectl apply to the row on the page`,
    });
    await expect(row.first()).toContainText('mesh-ambient');
    await snap(page, 'findings-applied-policy');
  } finally {
    await kubectl(null, 'delete', 'authorizationpolicy', '-n', 'mesh-ambient', name);
  }
  // and its deletion takes it off the page
  await expect(row).toHaveCount(0, { timeout: 30_000 });
});
