import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from './cli/report/chromium';
import { DEMO_DATA, PORTS, PROMETHEUS_DEMO_KUBECONFIG } from './e2e/support';
import { PROMETHEUS_BIN } from './test-support/prometheus';
import { nextStartArgs } from './test-support/next-start';

/**
 * e2e against the production build in Debian's Chromium (no browser download): three dashboards
 * on simulated clusters (fixed clock, so screenshots are stable: one read, one whose clocks the
 * specs move, one whose Deployments they roll), and two dashboards whose configuration is broken
 * on purpose, to prove errors reach the page and the server survives.
 */
const root = import.meta.dirname;
const next = path.join(root, 'node_modules', '.bin', 'next');
const env = { NEXT_TELEMETRY_DISABLED: '1', PATH: process.env.PATH ?? '' };
/**
 * The specs that advance the second demo's simulated clocks, or change its configuration with
 * kubectl (findings-follow: a policy in mesh-ambient, which no other spec of the demo reads).
 */
const CLOCK_SPECS = ['incidents.spec.ts', 'incidents-live.spec.ts', 'findings-follow.spec.ts'];
/** Roll Deployments and move clocks further (a live minute) on a third demo, and read what is left. */
const ROLLOUT_SPECS = ['invariants*.spec.ts', 'a11y-gone.spec.ts', 'incidents-layers.spec.ts'];
/** A demo's command: the scenarios on a fixed clock, its own history store and kubeconfigs. */
const demoServer = (port: number, scenarios: string, db: string, dataDir?: string) => ({
  command: `node bin/demo.mjs --port ${port} --scenario ${scenarios} --clock 2026-11-01T12:00:00Z --fresh-history${dataDir ? ` --data-dir ${dataDir}` : ''}`,
  url: `http://127.0.0.1:${port}/api/cluster`,
  timeout: 240_000,
  reuseExistingServer: false,
  env: { ...env, MESHDX_DB: path.join(root, 'test-results', db) },
  stdout: 'pipe' as const,
});

/**
 * How long a spec, and an expectation that waits for the page, may take before it fails: guards
 * against a hang, never measures (docs/testing.md). An expectation ends as soon as it holds, so
 * a passing spec is no slower for them; a machine busy with other work loads pages slower.
 */
const SPEC_GUARD_MS = 120_000;
const EXPECT_GUARD_MS = 30_000;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  timeout: SPEC_GUARD_MS,
  expect: { timeout: EXPECT_GUARD_MS },
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
  // One phase: no project depends on another. A dependency made its project wait for every test
  // of the phase before (Playwright runs phases one after the other), and the run ended on three
  // rollouts side by side with a core idle. Groups start in the order of this list: the longest
  // first.
  projects: [
    // These roll Deployments with kubectl and move clocks (PORTS.rolloutDemo).
    { name: 'rollouts', testMatch: ROLLOUT_SPECS },
    // These move the simulated clocks (deleted pods, a live minute) on a demo of their own
    // (PORTS.clockDemo). Each moves clusters of its own (the demo's and phantom-503;
    // phantom-cross-ns): the two run side by side.
    { name: 'clock', testMatch: CLOCK_SPECS },
    // These compare what the dashboard shows with what the simulators hold at the same instant:
    // they read the clusters and never change them, so they run side by side.
    { name: 'views', testIgnore: [...CLOCK_SPECS, ...ROLLOUT_SPECS] },
  ],
  use: {
    browserName: 'chromium',
    viewport: { width: 1440, height: 900 },
    launchOptions: {
      executablePath: chromiumPath(process.env),
      args: CHROMIUM_ARGS,
    },
  },
  webServer: [
    // builds when needed, then starts the simulators and the dashboard on them; the other two
    // wait for that build (bin/demo.mjs's lock)
    demoServer(PORTS.demo, 'demo,phantom-503,phantom-cross-ns', 'e2e-history'),
    // the same demo again, for the specs that move its clocks ('clock' above)
    demoServer(
      PORTS.clockDemo,
      'demo,phantom-503,phantom-cross-ns',
      'e2e-history-clock',
      DEMO_DATA.clockDemo,
    ),
    // and a third for the rollouts ('rollouts' above), with the ambient scenario and a
    // phantom-503 whose layers (EndpointSlice, istiod, each proxy's ACK) have their own delays
    demoServer(
      PORTS.rolloutDemo,
      'demo,phantom-503,phantom-cross-ns,ambient,phantom-503-slow-ack',
      'e2e-history-rollout',
      DEMO_DATA.rolloutDemo,
    ),
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
    // an archive gathered of phantom-503, served by `meshdx open` (e2e/archive-open.spec.ts)
    {
      command: `${path.join(root, 'node_modules', '.bin', 'tsx')} e2e/fixtures/archive-server.ts --port ${PORTS.archive}`,
      url: `http://127.0.0.1:${PORTS.archive}/api/cluster`,
      timeout: 240_000,
      reuseExistingServer: false,
      env,
    },
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
