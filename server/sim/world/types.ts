import type { KubeObject } from '../../../lib/kube/types';
import type { SimKind } from '../mesh/types';
import type { AccessEntry } from './build/accesslog';

/** One change of the store, as subscribers see it (after it was stored). */
export interface StoreChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: SimKind;
  entry: { readonly obj: KubeObject };
}

/**
 * The simulated cluster's object store, as scenarios drive it. `upsert` is the internal
 * seeding path (what etcd holds, as an old or damaged object could be): it does not validate,
 * so a scenario can seed a malformed object on purpose; the HTTP API validates before it. Every change gets the next
 * resourceVersion (one counter for the whole store, like etcd) and is appended to the watch
 * history, so that watchers resume from a resourceVersion and get 410 Gone once it expired.
 */
export interface SimStore {
  /** Create or replace; sets metadata.resourceVersion (and uid/creationTimestamp on create). Emits ADDED or MODIFIED. */
  upsert<T extends KubeObject>(kind: SimKind, obj: T): T;
  /** Delete; emits DELETED with the last state. Returns false when it did not exist. */
  remove(kind: SimKind, namespace: string | undefined, name: string): boolean;
  get<T extends KubeObject>(
    kind: SimKind,
    namespace: string | undefined,
    name: string,
  ): T | undefined;
  list<T extends KubeObject>(kind: SimKind): readonly T[];
  /** Current resourceVersion of the store. */
  resourceVersion(): number;
  /** Be told of every change (controllers react to API writes); returns the unsubscribe. */
  subscribe?(fn: (change: StoreChange) => void): () => void;
}

/** Container logs (what pods/log serves): lines stamped with the simulated time they were written. */
export interface SimLogs {
  append(namespace: string, pod: string, container: string, time: Date, line: string): void;
  read(
    namespace: string,
    pod: string,
    container: string,
    opts?: { sinceTime?: Date; tailLines?: number },
  ): { time: Date; line: string }[];
}

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

/** Switchable faults; the API server and the mesh emulator consult them on every request. */
export interface SimFaults {
  /** Extra latency (ms) on every API and pod-port request. */
  latencyMs: number;
  /** Probability 0..1 that an API request fails with 500. */
  errorRate: number;
  /** Close every open watch after this many ms (0 = never). */
  dropWatchesAfterMs: number;
  /** Pods (namespace/name) whose ports do not answer (pods/proxy and port-forward fail). */
  unreachablePods: Set<string>;
  /** Pods (namespace/name) whose ports answer only after this many ms. */
  slowPods: Map<string, number>;
  /**
   * Pods (namespace/name) whose Envoy reports these values (raw text) for these gauges on
   * /stats/prometheus, as a proxy with a broken stat or a corrupted scrape would.
   */
  gaugeOverrides: Map<string, Record<string, string>>;
}

export interface ScenarioContext {
  store: SimStore;
  logs: SimLogs;
  clock: SimClock;
  /** Deterministic random numbers in [0,1) seeded by the scenario name. */
  random: () => number;
  params: Record<string, string>;
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
