/**
 * What the simulated cluster's store, logs and faults promise the API server, the mesh emulator
 * and the scenarios that drive them (implemented by ./store.ts, ./logs.ts and ./faults.ts).
 */
import type { KubeObject } from '../../../lib/kube/types';
import type { SimKind } from './kinds';

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
