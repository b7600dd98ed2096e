/**
 * A watch-fed, in-memory cache of the cluster objects meshdx's use cases read: pods (live and
 * deleted, with their transitions), Events about pods, and the mesh config. It opens no watch of
 * its own: it hears the runtime's one pod feed and one event feed (server/kube/feed.ts), which
 * the history recorder hears too.
 */
import type { KubeEvent, Pod } from '../../lib/kube/types';
import type { Transition } from '../../lib/timeline/types';
import { objectProblems } from '../../lib/findings/object-shape';
import type { WatchFeed } from '../kube/feed';
import type { WatchState } from '../kube/listwatch';
import { getIstioConfigMap } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';
import { EventIndex } from './event-index';
import { MeshConfigCache, type MeshConfigState } from './mesh-config';
import { PodHistory, podKey, type DeletedPod, type PodHistoryOptions } from './pod-history';

export interface ClusterCacheOptions extends PodHistoryOptions {
  istioNamespace?: string;
  meshConfigTtlMs?: number;
}

/** The runtime's shared feeds the cache listens to. */
export interface ClusterFeeds {
  pods: WatchFeed<Pod>;
  events: WatchFeed<KubeEvent>;
}

export interface ClusterCacheStatus {
  podsWatch: WatchState | 'starting';
  eventsWatch: WatchState | 'starting';
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
  private readonly unsubscribe: (() => void)[];
  /** Pods seen whose shape cannot be read, left out of the views. */
  readonly malformedPods = new Set<string>();

  constructor(
    private readonly t: KubeTransport,
    private readonly feeds: ClusterFeeds,
    opts: ClusterCacheOptions = {},
  ) {
    this.pods = new PodHistory(opts);
    this.mesh = new MeshConfigCache(
      () => getIstioConfigMap(t, opts.istioNamespace ?? 'istio-system'),
      opts.meshConfigTtlMs,
    );
    this.unsubscribe = [
      feeds.pods.subscribe({
        onEvent: (ev) => {
          // a pod meshdx cannot read (no spec...) is left out of every view and counted; the
          // Findings report names it (MDX0002)
          if (objectProblems({ ...(ev.object as object), kind: 'Pod' }).length > 0) {
            this.malformedPods.add(ev.object.metadata?.uid ?? `${ev.object.metadata?.name}`);
            if (ev.type === 'DELETED')
              this.malformedPods.delete(ev.object.metadata?.uid ?? `${ev.object.metadata?.name}`);
            return;
          }
          this.pods.apply(ev);
        },
      }),
      feeds.events.subscribe({
        onEvent: (ev) => {
          for (const key of this.events.apply(ev)) this.pods.touch(key);
        },
      }),
    ];
  }

  /** Now on the cluster's clock (the API server's `Date`, see ClockOffset). */
  now(): Date {
    return this.t.clusterNow();
  }

  /**
   * Resolves once pods and events have been listed (the feeds then keep the cache current).
   * While the first list fails, rejects with why; the feeds keep trying.
   */
  async ready(): Promise<void> {
    this.feeds.pods.start();
    this.feeds.events.start();
    await Promise.all([
      this.feeds.pods.whenListed(),
      this.feeds.events.whenListed(),
      this.mesh.get(),
    ]);
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
    const pods = this.feeds.pods.currentStatus;
    const events = this.feeds.events.currentStatus;
    return {
      podsWatch: pods.state,
      eventsWatch: events.state,
      livePods: this.pods.livePods().length,
      deletedPods: this.pods.deletedPods().length,
      evictedPods: this.pods.evicted,
      droppedTransitions: this.pods.droppedTransitions,
      events: this.events.size,
      droppedEvents: this.events.dropped,
      lastError: pods.lastError ?? events.lastError,
    };
  }

  /** Stops listening (the feeds belong to the runtime, which stops them). */
  stop(): void {
    for (const u of this.unsubscribe) u();
  }
}
