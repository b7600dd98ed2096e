import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { CHROMIUM_ARGS } from './cli/report/chromium';
import { DEMO_DATA, PORTS, PROMETHEUS_DEMO_KUBECONFIG } from './e2e/support';
import { PROMETHEUS_BIN } from './test-support/prometheus';
import { nextStartArgs } from './test-support/next-start';

/**
 * e2e against the production build in Debian's Chromium (no browser download): two dashboards on
 * the simulated clusters (fixed clock, so screenshots are stable: one read, one whose clocks the
 * specs move), and two dashboards whose configuration is broken on purpose, to prove errors
 * reach the page and the server survives.
 */
const root = import.meta.dirname;
const next = path.join(root, 'node_modules', '.bin', 'next');
const env = { NEXT_TELEMETRY_DISABLED: '1', PATH: process.env.PATH ?? '' };
/** The specs that advance the demo's simulated clocks. */
const CLOCK_SPECS = ['incidents.spec.ts', 'incidents-live.spec.ts'];
/** Moves the clocks further (rollouts, a live minute): after the specs above, on the state they leave. */
const LAST_SPECS = ['invariants*.spec.ts', 'a11y-gone.spec.ts'];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // A spec file runs its tests in order on one worker. The specs mostly wait (on the demo's
  // clocks, Prometheus' scrapes, pages settling): the CPU time of a whole run was under half its
  // wall time on three workers, so four on two cores keep them busy.
  fullyParallel: false,
  workers: 4,
  retries: 0,
  // the run ends with its slowest tests (test-support/playwright-slowest.ts), and fails when a
  // selected test never ran (test-support/playwright-all-ran.ts)
  reporter: [
    ['list'],
    ['./test-support/playwright-slowest.ts'],
    ['./test-support/playwright-all-ran.ts'],
  ],
  projects: [
    // These compare what the dashboard shows with what the simulators hold at the same instant:
    // they read the clusters and never change them, so they run side by side.
    { name: 'views', testIgnore: [...CLOCK_SPECS, ...LAST_SPECS] },
    // These move the simulated clocks (rollouts, deleted pods): they run on a demo of their own
    // (PORTS.clockDemo), beside the specs above. Each moves clusters of its own (the demo's;
    // phantom-503 and phantom-cross-ns): the two run side by side.
    { name: 'clock', testMatch: CLOCK_SPECS },
    // These move the same demo's clocks further, on the state the specs above leave. A chain of
    // dependencies, not of teardowns: Playwright never starts a teardown's own teardown, and
    // counted both as "did not run" with exit 0 (test-support/playwright-all-ran.ts now fails
    // such a run). A failure above skips them, as a failed run.
    { name: 'last', testMatch: LAST_SPECS, dependencies: ['clock'] },
  ],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    {
      // builds when needed, then starts the simulator and the dashboard on it
      command: `node bin/demo.mjs --port ${PORTS.demo} --scenario demo,phantom-503,phantom-cross-ns --clock 2026-11-01T12:00:00Z --fresh-history`,
      url: `http://127.0.0.1:${PORTS.demo}/api/cluster`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: { ...env, MESHDX_DB: path.join(root, 'test-results', 'e2e-history') },
      stdout: 'pipe',
    },
    {
      // the same demo again, for the specs that move its clocks ('clock' and 'last' above)
      command: `node bin/demo.mjs --port ${PORTS.clockDemo} --scenario demo,phantom-503,phantom-cross-ns,ambient --clock 2026-11-01T12:00:00Z --fresh-history --data-dir ${DEMO_DATA.clockDemo}`,
      url: `http://127.0.0.1:${PORTS.clockDemo}/api/cluster`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: { ...env, MESHDX_DB: path.join(root, 'test-results', 'e2e-history-clock') },
      stdout: 'pipe',
    },
    {
      command: [next, ...nextStartArgs(PORTS.badKubeconfig)].join(' '),
      url: `http://127.0.0.1:${PORTS.badKubeconfig}/api/cluster`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: { ...env, MESHDX_KUBECONFIG: '/nonexistent/meshdx/kubeconfig' },
    },
    {
      command: [next, ...nextStartArgs(PORTS.unreachable)].join(' '),
      url: `http://127.0.0.1:${PORTS.unreachable}/api/cluster`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: {
        ...env,
        MESHDX_KUBECONFIG: path.join(root, 'e2e', 'fixtures', 'unreachable.kubeconfig'),
      },
    },
    // per-user identity: a token-checking simulated cluster each, meshdx in token / header mode
    ...(['token', 'header'] as const).map((mode) => {
      const port = mode === 'token' ? PORTS.identityToken : PORTS.identityHeader;
      return {
        command: `${path.join(root, 'node_modules', '.bin', 'tsx')} e2e/fixtures/identity-server.ts --mode ${mode} --port ${port}`,
        url: `http://127.0.0.1:${port}/api/health`,
        timeout: 240_000,
        reuseExistingServer: false,
        env,
      };
    }),
    // the demo on the wall clock with a real Prometheus scraping it every second (Debian's
    // package, which `npm test` and .ci/run install; without it this server fails to start,
    // naming the missing binary)
    {
      command: `${path.join(root, 'node_modules', '.bin', 'tsx')} test-support/prometheus-demo.ts --port ${PORTS.prometheus} --kubeconfig ${PROMETHEUS_DEMO_KUBECONFIG}`,
      url: `http://127.0.0.1:${PORTS.prometheus}/api/cluster`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: { ...env, PROMETHEUS_PATH: PROMETHEUS_BIN },
    },
  ],
});
