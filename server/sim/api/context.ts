import type { MeshEmulator } from '../mesh/types';
import type { SimAuth } from './auth-state';
import type { RequestCounts } from './request-counts';
import type { SimLogsImpl } from '../store/logs';
import type { SimStoreImpl } from '../store/store';
import type { SimClock, SimFaults } from '../world/types';

export interface ApiOptions {
  /** How long an unreachable pod port takes to fail (a dial timeout); default 2,000 ms. */
  dialTimeoutMs: number;
  /** Interval of BOOKMARK events on watches that allow them; default 10,000 ms. */
  bookmarkIntervalMs: number;
  /** Watch length when the client gives no timeoutSeconds; default 30 min. */
  defaultWatchTimeoutMs: number;
  /** Pod ports bound to 127.0.0.1 inside the pod: refused through pods/proxy; default [15000]. */
  loopbackPorts: readonly number[];
  /**
   * How long a list or watch from a resourceVersion the store has not reached waits for it
   * before the Too large resource version answer; default 3,000 ms (the watch cache's wait).
   */
  tooLargeResourceVersionWaitMs: number;
}

export const DEFAULT_API_OPTIONS: ApiOptions = {
  dialTimeoutMs: 2_000,
  bookmarkIntervalMs: 10_000,
  defaultWatchTimeoutMs: 30 * 60_000,
  loopbackPorts: [15000],
  tooLargeResourceVersionWaitMs: 3_000,
};

/** Everything the request handlers work with. */
export interface SimContext {
  scenario: string;
  store: SimStoreImpl;
  logs: SimLogsImpl;
  clock: SimClock;
  faults: SimFaults;
  mesh: MeshEmulator;
  /** For the errorRate fault. */
  random: () => number;
  options: ApiOptions;
  /** Requests by verb and resource (GET /_sim/info). */
  requests: RequestCounts;
  /** Bearer-token authentication and RBAC, when the simulator was given a token file. */
  auth?: SimAuth;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** Go's strconv.ParseBool truths, as the API server reads ?watch= and friends. */
export function queryBool(v: string | null): boolean {
  return v !== null && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(v);
}
