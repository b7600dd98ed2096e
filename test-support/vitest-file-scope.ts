import { afterAll, vi } from 'vitest';

/**
 * Setup file of the integration tests, which share a process per worker (`isolate: false`):
 * what one file changes in the process (environment variables, faked clocks, spies) is put back
 * when it ends, so the next file on that worker starts as if in a fresh process.
 */
const env = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
