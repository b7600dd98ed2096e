import { expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { waitForData } from '../cli/report/capture';

/** Ports from MESHDX_E2E_PORT (default 3107) up to +8, so two checkouts can run their e2e at once. */
const first = Number(process.env.MESHDX_E2E_PORT ?? 3107);
export const PORTS = {
  demo: first,
  badKubeconfig: first + 1,
  unreachable: first + 2,
  /** Per-user identity dashboards (e2e/identity.spec.ts): MESHDX_AUTH=token and =header. */
  identityToken: first + 3,
  identityHeader: first + 4,
  /** The demo with a real Prometheus scraping it (test-support/prometheus-demo.ts). */
  prometheus: first + 5,
  /**
   * A second demo of the same scenarios for the specs that move the simulated clocks (rollouts,
   * deleted pods, a live minute): they run beside the specs that read the first one unchanged.
   */
  clockDemo: first + 6,
  /**
   * A third demo for the specs that roll Deployments and check every number after
   * (invariants.spec.ts) and for the page of a pod those rollouts leave gone: they start with
   * the others instead of after the clock specs, whose clusters they would move.
   */
  rolloutDemo: first + 7,
  /** `meshdx open` on an archive gathered of phantom-503 (e2e/fixtures/archive-server.ts). */
  archive: first + 8,
};
/** Where each demo's simulators write their kubeconfigs (`npm run demo -- --data-dir`). */
export const DEMO_DATA = {
  // the demo's default (`data/demo-PORT`): it is started without --data-dir
  demo: path.join(import.meta.dirname, '..', 'data', `demo-${PORTS.demo}`),
  clockDemo: path.join(import.meta.dirname, '..', 'test-results', 'clock-demo'),
  rolloutDemo: path.join(import.meta.dirname, '..', 'test-results', 'rollout-demo'),
};
/** The kubeconfig of the Prometheus demo's simulator, for kubectl in the specs. */
export const PROMETHEUS_DEMO_KUBECONFIG = path.join(
  import.meta.dirname,
  '..',
  'test-results',
  'prometheus-demo.kubeconfig',
);
export const base = (port: number) => `http://127.0.0.1:${port}`;

/**
 * Collects the page's Content-Security-Policy violations (and uncaught errors) from now on:
 * the browser's securitypolicyviolation events and its "Refused to ..." console messages. Call
 * before the first navigation; the list fills as the page runs.
 */
export async function watchContentSecurityPolicy(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to (load|execute|apply|evaluate|connect)/i.test(m.text()))
      violations.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => violations.push(`${page.url()}: ${e.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `Content-Security-Policy violation: ${e.violatedDirective} ${e.blockedURI} ${e.sample}`,
      ),
    );
  });
  return violations;
}

export const SCREENSHOTS = path.join(import.meta.dirname, '..', 'test-results', 'screenshots');

/** Full-page screenshot for the report; waits for data, not for time. */
export async function snap(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // a view's first answer can scan every proxy (Findings on a new user's runtime): on two busy
  // cores that outlasts expect's 15 s; what is waited for is the same
  await expect(page.getByTestId('loading')).toHaveCount(0, { timeout: 60_000 });
  // as `meshdx report` waits before its screenshots: data in, network quiet, charts drawn
  expect(await waitForData(page, 30_000)).toBeNull();
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The simulator of a scenario a demo serves (`--scenario demo,phantom-503`), by its kubeconfig. */
export function simUrlOf(scenario: string, dataDir: string = DEMO_DATA.demo): string {
  const kc = fs.readFileSync(path.join(dataDir, `sim-${scenario}.kubeconfig`), 'utf8');
  const m = /server:\s*(\S+)/.exec(kc);
  if (!m?.[1]) throw new Error(`no server in the ${scenario} simulator kubeconfig`);
  return m[1];
}

/** The simulator behind the demo dashboard's first scenario. */
export function simUrl(dataDir: string = DEMO_DATA.demo): string {
  return simUrlOf('demo', dataDir);
}
