/**
 * A watch-fed, in-memory cache of the cluster objects meshdx's use cases read now: the live
 * pods and the mesh config. It opens no watch of its own: it hears the runtime's one pod feed
 * (server/kube/feed.ts), which the history recorder hears too. Pods that were, their
 * transitions and their Events are the history store's alone (server/store/pod-history.ts).
 */
import type { KubeEvent, Pod } from '../../lib/kube/types';
import { objectProblems } from '../../lib/findings/object-shape';
import type { WatchFeed } from '../kube/feed';
import type { WatchState } from '../kube/listwatch';
import { getIstioConfigMap } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';
import { MeshConfigCache, type MeshConfigState } from './mesh-config';
import { podIdKeyOfObject } from '../../lib/refs/pod-ref';

export interface ClusterCacheOptions {
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
  lastError: string | null;
}

const keyOf = (p: Pod): string => podIdKeyOfObject(p);

export class ClusterCache {
  private readonly live = new Map<string, Pod>();
  readonly mesh: MeshConfigCache;
  private readonly unsubscribe: () => void;
  /** Pods seen whose shape cannot be read, left out of the views. */
  readonly malformedPods = new Set<string>();
  /** Bumped on every change of the live pods. */
  version = 0;

  constructor(
    private readonly t: KubeTransport,
    private readonly feeds: ClusterFeeds,
    opts: ClusterCacheOptions = {},
  ) {
    this.mesh = new MeshConfigCache(
      () => getIstioConfigMap(t, opts.istioNamespace ?? 'istio-system'),
      opts.meshConfigTtlMs,
    );
    this.unsubscribe = feeds.pods.subscribe({
      onEvent: (ev) => {
        const pod = ev.object;
        // a pod meshdx cannot read (no spec...) is left out of every view and counted; the
        // Findings report names it (MDX0002)
        if (objectProblems({ ...(pod as object), kind: 'Pod' }).length > 0) {
          this.malformedPods.add(pod.metadata?.uid ?? `${pod.metadata?.name}`);
          if (ev.type === 'DELETED')
            this.malformedPods.delete(pod.metadata?.uid ?? `${pod.metadata?.name}`);
          return;
        }
        if (ev.type === 'DELETED') this.live.delete(keyOf(pod));
        else this.live.set(keyOf(pod), pod);
        this.version++;
      },
    });
  }

  /** Now on the cluster's clock (the API server's `Date`, see ClockOffset). */
  now(): Date {
    return this.t.clusterNow();
  }

  /**
   * Resolves once pods and events have been listed (the feeds then keep the cache and the
   * history store current). While the first list fails, rejects with why; the feeds keep trying.
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
    return [...this.live.values()];
  }

  /** The live pod of that namespace and name, or null. */
  findLive(namespace: string, name: string): Pod | null {
    for (const p of this.live.values()) {
      if (p.metadata.name === name && (p.metadata.namespace ?? 'default') === namespace) return p;
    }
    return null;
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
      livePods: this.live.size,
      lastError: pods.lastError ?? events.lastError,
    };
  }

  /** Stops listening (the feeds belong to the runtime, which stops them). */
  stop(): void {
    this.unsubscribe();
  }
}
