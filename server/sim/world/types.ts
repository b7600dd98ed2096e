import type { SimFaults, SimLogs, SimStore, StoreChange } from '../store/contracts';
import type { XdsControl } from '../mesh/istio-model/xds-control';

// the store's contracts are the store's; scenarios read them here too
export type { SimFaults, SimLogs, SimStore, StoreChange };

/**
 * Simulated time. `real`: now() follows the wall clock from the start. `fixed`: time stands still
 * at a given instant until advance() is called (deterministic tests and screenshots). Scheduled
 * work runs, in time order, when the clock reaches it.
 */
export interface SimClock {
  now(): Date;
  /** Run fn when the simulated clock reaches `at` (immediately, in order, if already past). */
  schedule(at: Date, fn: () => void): void;
  /** Move a fixed clock forward by ms, running what becomes due; for a real clock, it shifts the offset. */
  advance(ms: number): void;
  readonly mode: 'real' | 'fixed';
  stop(): void;
}

export interface ScenarioContext {
  store: SimStore;
  logs: SimLogs;
  clock: SimClock;
  /** Deterministic random numbers in [0,1) seeded by the scenario name. */
  random: () => number;
  params: Record<string, string>;
  /**
   * The layer delays of this cluster (EndpointSlice controller, istiod's debounce and push, each
   * proxy's ACK): off until a scenario turns them on; without them every layer follows at once.
   */
  xds?: XdsControl;
  /**
   * What makes this start's object uids its own (a real cluster never gives a new object the
   * uid of an earlier one, across restarts too); empty: the uids follow the seed alone (a
   * world built twice in one test is the same world).
   */
  uidSalt?: string;
  /**
   * Told of each request a pod's proxy logs, when it happens (the proxy's access loggers other
   * than its stdout file: the OpenTelemetry logger, server/sim/otlp).
   */
  onAccess?: (
    pod: { namespace: string; name: string; ip: string; labels: Record<string, string> },
    e: AccessEntry,
  ) => void;
}

export interface Scenario {
  name: string;
  description: string;
  /** Create the initial world and schedule what happens later on the clock. */
  start(ctx: ScenarioContext): void;
}

/** One proxied request as a client's sidecar logs it. */
export interface AccessEntry {
  at: number;
  method: string;
  path: string;
  protocol: string;
  code: number;
  flags: string;
  details: string;
  termination?: string;
  transportFailure?: string;
  bytesIn: number;
  bytesOut: number;
  duration: number;
  upstreamTime?: number;
  userAgent: string;
  requestId: string;
  authority: string;
  upstreamHost?: string;
  upstreamCluster: string;
  upstreamLocal?: string;
  downstreamLocal: string;
  downstreamRemote: string;
  sni?: string;
  route?: string;
}
