import { defineConfig } from 'vitest/config';
import os from 'node:os';
import path from 'node:path';
import WaitingFirst from './test-support/vitest-sequencer';

/**
 * Test files that replace modules (vi.mock): each runs in a process of its own. The other
 * integration files share a process per worker, where a replaced module would leak into the
 * files after it. tests/lint/isolated-mocks.test.ts fails when a file that mocks is not listed.
 * (Kept here: Vite's native config loader is to refuse imports without a file extension.)
 */
export const ISOLATED_TEST_FILES: readonly string[] = [
  'tests/auth/pages.test.ts',
  'tests/edges/route-table.test.ts',
];
const ISOLATED = ISOLATED_TEST_FILES;

/**
 * How long a test, and a hook, may run before Vitest calls it hung. These are guards, never
 * measures (docs/testing.md: no test depends on the machine's speed): a machine busy with other
 * work ran the suite 1.6 times slower than idle, and a test that takes 20 s idle must not fail
 * for that. A test that hangs is reported this much later; one that passes is not slower.
 */
const TEST_GUARD_MS = 120_000;
const HOOK_GUARD_MS = 180_000;
/** expect.poll's default wait (Vitest's is 1 s): as long as a test waits for an event to come. */
const POLL_GUARD_MS = 60_000;

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    testTimeout: TEST_GUARD_MS,
    // the tests exercise meshdx's logic against a local simulator; the request budget itself is
    // tested (tests/scale) with budgets set explicitly, so the rest run unthrottled
    env: { MESHDX_API_QPS: '1000', MESHDX_API_BURST: '2000' },
    hookTimeout: HOOK_GUARD_MS,
    expect: { poll: { timeout: POLL_GUARD_MS } },
    // Most files spend their time waiting on the servers they start (the simulator, Prometheus,
    // kubectl, Chromium), some by design (an API server 5 s slow): one file per core left the
    // cores idle half the run (Vitest alone: 171 s wall for 163 s of CPU on two cores). Two
    // files per core, the waiting ones first (test-support/vitest-sequencer.ts), with next build
    // and the static checks filling the waits: 126 s alone (six workers: 115 s, but the timing
    // tests then ran on a machine three times over-subscribed). A project inherits this; Vitest's
    // --maxWorkers does not reach it.
    maxWorkers: Math.min(2 * os.availableParallelism(), 8),
    sequence: { sequencer: WaitingFirst },
    // the run ends with the tests and files that took longest (test-support/vitest-slowest.ts)
    reporters: ['default', './test-support/vitest-slowest.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'lib',
          include: ['lib/**/*.test.ts'],
          // lib/ is pure (ESLint fences it from I/O, servers and process state), so its files
          // share one module graph per worker instead of a fresh process each: importing the
          // modules again for each of ~100 files took two thirds of lib's CPU time (37 s of CPU
          // against 12 s shared, same tests).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/**/*.test.ts', 'cli/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [...ISOLATED],
          // These start servers and hold runtimes, but each file stops what it starts and leaves
          // no module state behind (ESLint's module-state rule), so the files on a worker share
          // one process and one module graph: importing @kubernetes/client-node, Next's modules
          // and the simulator again for each of ~170 files was half of their CPU time (325 CPU-s
          // against 162 for the same 976 tests). What a file changes in the process (env,
          // faked clocks, spies) is put back when it ends (test-support/vitest-file-scope.ts).
          isolate: false,
          setupFiles: ['./test-support/vitest-file-scope.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          // files that replace modules (vi.mock): a process each, so no other file sees the
          // replacement (ISOLATED_TEST_FILES above)
          include: [...ISOLATED],
        },
      },
    ],
  },
});
