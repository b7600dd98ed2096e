import { defineConfig } from 'vitest/config';
import os from 'node:os';
import path from 'node:path';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['lib/**/*.test.ts', 'server/**/*.test.ts', 'cli/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 30_000,
    // the tests exercise meshdx's logic against a local simulator; the request budget itself is
    // tested (tests/scale) with budgets set explicitly, so the rest run unthrottled
    env: { MESHDX_API_QPS: '1000', MESHDX_API_BURST: '2000' },
    hookTimeout: 60_000,
    // Most files spend their time waiting on the servers they start (the simulator, Prometheus,
    // kubectl, Chromium): one file per core keeps the cores busy. Vitest's default (cores - 1)
    // ran them one at a time on a two-core machine: 364 s against 219 s for the same files.
    maxWorkers: os.availableParallelism(),
  },
});
