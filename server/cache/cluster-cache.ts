/**
 * A shared, watch-fed, in-memory cache of the cluster objects meshdx's use cases read: pods (live
 * and deleted, with their transitions), Events about pods, and the mesh config. One list+watch
 * per resource for the whole process; use cases read from memory instead of listing per request.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { Transition } from '../../lib/timeline/types';
import { latestStatusTime } from '../../lib/ledger/observation';
import { ListWatcher, type WatchState } from '../kube/listwatch';
import { CORE, getIstioConfigMap } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';
import { EventIndex } from './event-index';
import { MeshConfigCache, type MeshConfigState } from './mesh-config';
import { PodHistory, podKey, type DeletedPod, type PodHistoryOptions } from './pod-history';

export interface ClusterCacheOptions extends PodHistoryOptions {
  istioNamespace?: string;
  meshConfigTtlMs?: number;
  now?: () => Date;
}

export interface ClusterCacheStatus {
  podsWatch: WatchState | 'not-started';
  eventsWatch: WatchState | 'not-started';
  livePods: number;
  deletedPods: number;
  evictedPods: number;
  droppedTransitions: number;
  events: number;
  droppedEvents: number;
  lastError: string | null;
}

export class ClusterCache {
  readonly pods: PodHistory;
  readonly events = new EventIndex();
  readonly mesh: MeshConfigCache;
  private podWatch?: ListWatcher<Pod>;
  private eventWatch?: ListWatcher<KubeEvent>;
  private starting: Promise<void> | null = null;
  private lastError: string | null = null;

  constructor(
    private readonly t: KubeTransport,
    private readonly kc: KubeConfig,
    private readonly opts: ClusterCacheOptions = {},
  ) {
    this.pods = new PodHistory(opts);
    this.mesh = new MeshConfigCache(
      () => getIstioConfigMap(t, opts.istioNamespace ?? 'istio-system'),
      opts.meshConfigTtlMs,
    );
  }

  /** Now on the cluster's clock (the API server's `Date`, see ClockOffset). */
  now(): Date {
    return this.t.clusterNow();
  }

  /**
   * Resolves once pods and events have been listed (the watches then keep the cache current).
   * A failed first list rejects; the next call tries again.
   */
  ready(): Promise<void> {
    this.starting ??= this.start().catch((e: unknown) => {
      this.starting = null;
      this.lastError = (e as Error).message;
      this.podWatch?.stop();
      this.eventWatch?.stop();
      throw e;
    });
    return this.starting;
  }

  private async start(): Promise<void> {
    const now = this.opts.now;
    this.podWatch = new ListWatcher<Pod>(this.t, this.kc, CORE.pods, {
      onEvent: (ev) => this.pods.apply(ev),
      onState: (s, d) => this.noteState(s, d),
      floor: latestStatusTime,
      ...(now ? { now } : {}),
    });
    this.eventWatch = new ListWatcher<KubeEvent>(this.t, this.kc, CORE.events, {
      onEvent: (ev) => {
        for (const key of this.events.apply(ev)) this.pods.touch(key);
      },
      onState: (s, d) => this.noteState(s, d),
      ...(now ? { now } : {}),
    });
    await Promise.all([this.podWatch.start(), this.eventWatch.start(), this.mesh.refresh()]);
    this.lastError = null;
  }

  private noteState(s: WatchState, detail?: string): void {
    if (s === 'retrying' && detail) this.lastError = detail;
  }

  livePods(): Pod[] {
    return this.pods.livePods();
  }

  deletedPods(): DeletedPod[] {
    return this.pods.deletedPods();
  }

  findPod(namespace: string, name: string): { pod: Pod; deleted: DeletedPod | null } | null {
    return this.pods.find(namespace, name);
  }

  transitions(pod: Pod): Transition[] {
    return this.pods.transitions(podKey(pod));
  }

  eventsFor(pod: Pod): KubeEvent[] {
    return this.events.forPod(pod);
  }

  revision(pod: Pod): number {
    return this.pods.revision(podKey(pod));
  }

  meshConfig(): Promise<MeshConfigState> {
    return this.mesh.get();
  }

  status(): ClusterCacheStatus {
    return {
      podsWatch: this.podWatch?.currentState ?? 'not-started',
      eventsWatch: this.eventWatch?.currentState ?? 'not-started',
      livePods: this.pods.livePods().length,
      deletedPods: this.pods.deletedPods().length,
      evictedPods: this.pods.evicted,
      droppedTransitions: this.pods.droppedTransitions,
      events: this.events.size,
      droppedEvents: this.events.dropped,
      lastError: this.lastError,
    };
  }

  stop(): void {
    this.podWatch?.stop();
    this.eventWatch?.stop();
  }
}
