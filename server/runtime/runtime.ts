/**
 * Everything meshdx holds about one cluster connection (a kubeconfig context, or in-cluster):
 * the client and its clock offset, ONE pod watch and ONE event watch whose events feed every
 * consumer (the inventory cache, the SQLite history recorder, Timelines, Incidents), the
 * history store, the mesh-config cache, Envoy init times and each screen's caches. Stopping
 * it drops all of that in one place: a context switch or a cluster change needs nothing else.
 */
import { podLogs } from '../kube/logs';
import fs from 'node:fs';
import path from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeEvent, Pod } from '../../lib/kube/types';
import { latestStatusTime } from '../../lib/ledger/observation';
import { ClusterCache } from '../cache/cluster-cache';
import { gatedHistory } from './history-gate';
import { EnvoyInitTimes } from '../envoy/init-times';
import type { MeshdxEnv } from '../env';
import { WatchFeed } from '../kube/feed';
import { ConfigChanges } from '../kube/config-watch';
import { CORE } from '../kube/resources';
import type { ClusterSource } from '../kube/source';
import { KubeTransport } from '../kube/transport';
import {
  openHistoryStore,
  startRecorder,
  StorePodHistory,
  type FailureLimits,
  type HistoryStore,
  type Recorder,
} from '../store';

/** Where a runtime's pod history lives and how it is doing. */
export interface HistoryInfo {
  /** The SQLite file's name (not its path on disk), or ':memory:'. */
  file: string;
  /** Why the file could not be used (the history then lives in memory for this run), if so. */
  fallback: string | null;
}

/** The store file of a context (see MESHDX_DB). */
export function storeFileFor(db: string, context: string, isDefault: boolean): string {
  if (db === ':memory:') return db;
  const safe = context.replace(/[^A-Za-z0-9._-]/g, '_');
  const name = safe === context ? safe : `${safe}-${hash(context)}`;
  if (/\.(sqlite|db)$/i.test(db)) {
    return isDefault ? db : path.join(path.dirname(db), `${name}.sqlite`);
  }
  return path.join(db, `${name}.sqlite`);
}

function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/**
 * A context's history as its base runtime (meshdx's own identity) records it: a user's runtime
 * reads the same store through this handle and never writes to it or closes it.
 */
export interface SharedHistory {
  store: HistoryStore;
  history: HistoryInfo;
  recorder: Recorder;
}

/**
 * A screen's slot in every runtime: its name (one key per name) and how its state is made. The
 * key carries the state's type, so `rt.screen(key)` needs no cast where it is called.
 */
export interface ScreenKey<T> {
  readonly name: string;
  readonly make: (rt: ClusterRuntime) => T;
}

/** A screen's key, defined once beside the screen's code and imported wherever it is used. */
export function defineScreen<T>(name: string, make: (rt: ClusterRuntime) => T): ScreenKey<T> {
  return Object.freeze({ name, make });
}

export class ClusterRuntime {
  readonly kc: KubeConfig;
  readonly transport: KubeTransport;
  readonly pods: WatchFeed<Pod>;
  readonly events: WatchFeed<KubeEvent>;
  readonly cache: ClusterCache;
  readonly store: HistoryStore;
  readonly history: HistoryInfo;
  readonly recorder: Recorder;
  /** What happened to each pod: live ones from the cache, the pods that were from the store. */
  readonly podHistory: StorePodHistory;
  readonly envoyInit = new EnvoyInitTimes();
  /** Changes to the configuration the findings read, heard as they happen (started on first use). */
  readonly configChanges: ConfigChanges;
  private readonly screens = new Map<string, unknown>();
  private stopped = false;
  /**
   * Whether the store and recorder are this runtime's own (closed when it stops): meshdx's own
   * identity; false for a user's runtime, which reads them.
   */
  readonly ownsHistory: boolean;
  lastUsed = Date.now();

  /**
   * `history`: the store file this runtime records into, or (a user's runtime) the base
   * runtime's history, read only.
   */
  constructor(
    readonly source: ClusterSource,
    readonly settings: MeshdxEnv,
    history: string | SharedHistory,
  ) {
    this.kc = source.kc;
    this.transport = new KubeTransport(source.kc, {
      qps: settings.MESHDX_API_QPS,
      burst: settings.MESHDX_API_BURST,
      proxyConcurrency: settings.MESHDX_PROXY_CONCURRENCY,
    });
    const now = () => this.transport.clusterNow();
    this.pods = new WatchFeed<Pod>(this.transport, this.kc, CORE.pods, {
      floor: latestStatusTime,
      now,
    });
    this.events = new WatchFeed<KubeEvent>(this.transport, this.kc, CORE.events, { now });
    this.configChanges = new ConfigChanges(this.transport, this.kc);
    this.cache = new ClusterCache(
      this.transport,
      { pods: this.pods, events: this.events },
      { istioNamespace: settings.MESHDX_ISTIO_NAMESPACE },
    );
    if (typeof history === 'string') {
      const opened = openStore(history, settings.MESHDX_CLOCK, {
        maxAgeDays: settings.MESHDX_FAILURE_MAX_DAYS,
        maxBytes: settings.MESHDX_FAILURE_MAX_MB * 1024 * 1024,
      });
      this.store = opened.store;
      // what views and /api/health show: the file's name, never where it is on the server's disk
      const name = path.basename(opened.file);
      this.history = {
        file: name,
        fallback: opened.fallback?.split(opened.file).join(name) ?? null,
      };
      this.recorder = startRecorder({
        pods: this.pods,
        events: this.events,
        store: this.store,
        now,
        readLog: (ns, pod, container, o) => podLogs(this.transport, ns, pod, container, o),
      });
      this.ownsHistory = true;
    } else {
      this.store = gatedHistory(history.store, this.pods);
      this.history = history.history;
      this.recorder = history.recorder;
      this.ownsHistory = false;
    }
    this.podHistory = new StorePodHistory(this.cache, this.store, { now });
  }

  /** This runtime's history, for a user's runtime on the same context to read. */
  sharedHistory(): SharedHistory {
    return { store: this.store, history: this.history, recorder: this.recorder };
  }

  get context(): string {
    return this.source.context;
  }

  /** Starts the watches (idempotent; they retry on their own until the cluster answers). */
  start(): this {
    this.pods.start();
    this.events.start();
    return this;
  }

  /** Marks the runtime used (an idle one that is not the default context is stopped). */
  touch(): this {
    this.lastUsed = Date.now();
    return this;
  }

  /**
   * Istio's root namespace: the mesh config's rootNamespace when it sets one, else the
   * namespace meshdx is told istiod runs in (MESHDX_ISTIO_NAMESPACE), as Istio defaults it.
   * A Sidecar without selector there applies to every namespace without one of its own.
   */
  async rootNamespace(): Promise<string> {
    const mesh = await this.cache.meshConfig();
    return mesh.settings?.rootNamespace ?? this.settings.MESHDX_ISTIO_NAMESPACE;
  }

  /** Now on the cluster's clock. */
  now(): Date {
    return this.transport.clusterNow();
  }

  /**
   * A screen's state in this runtime (its caches, its running jobs), made by its key on first
   * use. The screens own their types (each key, from defineScreen, carries its state's); the
   * runtime only owns their lifetime.
   */
  screen<T>(key: ScreenKey<T>): T {
    const made = this.screens.get(key.name);
    // the one unchecked cast: a name is defined by one key (defineScreen, each name once:
    // tests/lint/screen-keys.test.ts), so what is kept under it was made by that key's make
    if (made !== undefined) return made as T;
    const s = key.make(this);
    this.screens.set(key.name, s);
    return s;
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.ownsHistory) this.recorder.stop();
    this.cache.stop();
    this.pods.stop();
    this.events.stop();
    this.configChanges.stop();
    this.screens.clear();
    this.transport.close();
    if (!this.ownsHistory) return;
    try {
      this.store.close();
    } catch (e) {
      console.error(`meshdx: closing the history store of ${this.context} failed:`, e);
    }
  }
}

function openStore(
  file: string,
  clock: MeshdxEnv['MESHDX_CLOCK'],
  failureLimits: FailureLimits,
): { store: HistoryStore; file: string; fallback: string | null } {
  try {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return { store: openHistoryStore(file, { clock, failureLimits }), file, fallback: null };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    console.error(`meshdx: history store ${file} unavailable, keeping history in memory: ${why}`);
    return {
      store: openHistoryStore(':memory:', { clock, failureLimits }),
      file: ':memory:',
      fallback: `history store ${file} could not be opened (${why}): pod history is kept in memory since this meshdx started`,
    };
  }
}
