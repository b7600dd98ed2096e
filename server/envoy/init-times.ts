/**
 * Envoy `server.initialization_time_ms` (start to LIVE, which in Istio includes the first
 * CDS/LDS) of each proxy, learned from every :15090 scrape meshdx makes (the Proxies scan,
 * Scoping, a pod's timeline). Timelines use it as a proxy-ready source: the proxy's start plus
 * this. A figure belongs to the proxy run that was up when it was scraped, so it is offered
 * only for a pod whose istio-proxy started before that moment.
 */
import type { Pod } from '../../lib/kube/types';
import type { EnvoyProxyStats } from '../../lib/metrics/envoy-stats';

interface Seen {
  ms: number;
  /** When it was scraped, on the cluster's clock. */
  at: number;
}

interface Registry {
  byPod: Map<string, Seen>;
  /** Bumped whenever a figure changes, so that cached analyses know to look again. */
  version: number;
}

const holder = globalThis as typeof globalThis & { __meshdxEnvoyInit?: Registry };
const registry = (): Registry => (holder.__meshdxEnvoyInit ??= { byPod: new Map(), version: 0 });
const seen = (): Map<string, Seen> => registry().byPod;

/** Changes whenever a recorded init time does. */
export function envoyInitVersion(): number {
  return registry().version;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;

/** Records a scrape's init time; only a histogram with exactly one initialization counts. */
export function noteEnvoyInit(
  namespace: string,
  name: string,
  stats: Pick<EnvoyProxyStats, 'initializationTimeMs'>,
  at: number,
): void {
  const h = stats.initializationTimeMs;
  if (!h || h.count !== 1 || !Number.isFinite(h.sum) || h.sum < 0) return;
  const key = keyOf(namespace, name);
  const old = seen().get(key);
  if (old?.ms !== h.sum) registry().version++;
  seen().set(key, { ms: h.sum, at: Math.max(at, old?.at ?? at) });
}

function proxyStartedAt(pod: Pod): number | null {
  const statuses = [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ];
  const started = statuses.find((s) => s.name === 'istio-proxy')?.state?.running?.startedAt;
  const ms = started ? Date.parse(started) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** The init time scraped from this pod's current proxy run, if any. */
export function envoyInitFor(pod: Pod): number | undefined {
  const s = seen().get(keyOf(pod.metadata.namespace ?? 'default', pod.metadata.name));
  if (!s) return undefined;
  const started = proxyStartedAt(pod);
  return started !== null && started <= s.at ? s.ms : undefined;
}

/** Whether an init time was recorded for this pod name (its run is checked at use). */
export function hasEnvoyInit(namespace: string, name: string): boolean {
  return seen().has(keyOf(namespace, name));
}

/** Forgets everything (tests). */
export function clearEnvoyInit(): void {
  seen().clear();
  registry().version++;
}
