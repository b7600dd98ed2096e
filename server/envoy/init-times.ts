/**
 * Envoy `server.initialization_time_ms` (start to LIVE, which in Istio includes the first
 * CDS/LDS) of each proxy, learned from every :15090 scrape meshdx makes (the Proxies scan,
 * Scoping, a pod's timeline). Timelines use it as a proxy-ready source: the proxy's start plus
 * this. A figure belongs to the proxy run that was up when it was scraped, so it is offered
 * only for a pod whose istio-proxy started before that moment, and not for a deleted pod seen
 * gone before it (the name's proxy was then a namesake's: a StatefulSet's pod recreated).
 */
import { proxyStartedAt } from '../../lib/dataplane/proxy-container';
import type { Pod } from '../../lib/kube/types';
import type { EnvoyProxyStats } from '../../lib/metrics/envoy-stats';
import { podKey } from '../../lib/refs/pod-ref';

interface Seen {
  ms: number;
  /** When it was scraped, on the cluster's clock. */
  at: number;
}

/** The init times scraped from one cluster's proxies (one per cluster runtime). */
export class EnvoyInitTimes {
  private readonly byPod = new Map<string, Seen>();
  /** Bumped whenever a figure changes, so that cached analyses know to look again. */
  version = 0;

  /** Records a scrape's init time; only a histogram with exactly one initialization counts. */
  note(
    namespace: string,
    name: string,
    stats: Pick<EnvoyProxyStats, 'initializationTimeMs'>,
    at: number,
  ): void {
    const h = stats.initializationTimeMs;
    if (!h || h.count !== 1 || !Number.isFinite(h.sum) || h.sum < 0) return;
    const key = podKey(namespace, name);
    const old = this.byPod.get(key);
    if (old?.ms !== h.sum) this.version++;
    this.byPod.set(key, { ms: h.sum, at: Math.max(at, old?.at ?? at) });
  }

  /**
   * The init time scraped from this pod's current proxy run, if any. `goneAt`: when a deleted
   * pod was seen gone (ms since the epoch), null for a live pod.
   */
  for(pod: Pod, goneAt: number | null = null): number | undefined {
    const s = this.byPod.get(podKey(pod.metadata.namespace ?? 'default', pod.metadata.name));
    if (!s) return undefined;
    if (goneAt !== null && s.at > goneAt) return undefined;
    const started = proxyStartedAt(pod);
    return started !== null && started <= s.at ? s.ms : undefined;
  }

  /** Whether an init time was recorded for this pod name (its run is checked at use). */
  has(namespace: string, name: string): boolean {
    return this.byPod.has(podKey(namespace, name));
  }
}
