import type { KubeConfig } from '@kubernetes/client-node';
import { loadEnv, type MeshdxEnv } from './env';
import {
  ClusterConfigError,
  clusterSourceFingerprint,
  isClusterConfigError,
  resolveClusterSource,
  type ClusterSource,
  type SourceOptions,
} from './kube/source';
import { KubeTransport } from './kube/transport';

export interface Cluster {
  source: ClusterSource;
  kc: KubeConfig;
  transport: KubeTransport;
}

interface State {
  env: MeshdxEnv;
  cluster?: Cluster;
  /** clusterSourceFingerprint when the cluster (or the error) was resolved. */
  fingerprint?: string;
  checkedAt?: number;
  error?: ClusterConfigError;
  errorAt?: number;
  listeners: Set<(next: Cluster | undefined) => void>;
}

/** A configuration error is re-checked after this long, so fixing a kubeconfig needs no restart. */
const RETRY_CONFIG_MS = 5_000;
/**
 * How often the kubeconfig file(s) behind a working cluster are stat'ed: a rewritten file (a
 * corrected server address, a new context) is picked up within this long, without a restart.
 */
export const RECHECK_KUBECONFIG_MS = 3_000;

// Next may load a module more than once (route bundles); keep one state per process.
const holder = globalThis as typeof globalThis & { __meshdx?: State };

function state(): State {
  holder.__meshdx ??= { env: loadEnv(), listeners: new Set() };
  return holder.__meshdx;
}

export function env(): MeshdxEnv {
  return state().env;
}

function sourceOptions(s: State): SourceOptions {
  return {
    kubeconfig: s.env.MESHDX_KUBECONFIG,
    context: s.env.MESHDX_CONTEXT,
    simulatedScenario: s.env.MESHDX_SIMULATED,
  };
}

/**
 * Called with the new cluster (or undefined when the new configuration is broken) when the
 * kubeconfig changed and the old cluster was closed: long-lived watchers restart on the new one.
 */
export function onClusterChange(fn: (next: Cluster | undefined) => void): () => void {
  const s = state();
  s.listeners.add(fn);
  return () => s.listeners.delete(fn);
}

/** Drop the cached cluster when its kubeconfig changed since it was resolved (cheap stat). */
function dropIfStale(s: State, now: number): void {
  if (!s.cluster || now - (s.checkedAt ?? 0) < RECHECK_KUBECONFIG_MS) return;
  s.checkedAt = now;
  if (clusterSourceFingerprint(sourceOptions(s)) === s.fingerprint) return;
  const old = s.cluster;
  s.cluster = undefined;
  s.error = undefined;
  old.transport.close();
}

function notify(s: State, next: Cluster | undefined): void {
  for (const fn of s.listeners) {
    try {
      fn(next);
    } catch (e) {
      console.error('meshdx: cluster change listener failed', e);
    }
  }
}

/** The cluster meshdx reads, or a ClusterConfigError saying what is wrong and how to fix it. */
export function cluster(): Cluster {
  const s = state();
  const now = Date.now();
  const had = s.cluster !== undefined;
  dropIfStale(s, now);
  if (s.cluster) return s.cluster;
  const opts = sourceOptions(s);
  const fingerprint = clusterSourceFingerprint(opts);
  if (s.error && s.errorAt && now - s.errorAt < RETRY_CONFIG_MS && fingerprint === s.fingerprint) {
    throw s.error;
  }
  s.fingerprint = fingerprint;
  s.checkedAt = now;
  try {
    const source = resolveClusterSource(opts);
    if (!source) {
      throw new ClusterConfigError(
        'NO_CLUSTER',
        'no cluster configured: no --kubeconfig, no KUBECONFIG, no ~/.kube/config and not running in a cluster',
        'Set KUBECONFIG (or pass --kubeconfig), deploy meshdx in the cluster, or run `npm run demo` for the simulated cluster.',
      );
    }
    s.cluster = { source, kc: source.kc, transport: new KubeTransport(source.kc) };
    s.error = undefined;
    if (had) notify(s, s.cluster);
    return s.cluster;
  } catch (e) {
    if (isClusterConfigError(e)) {
      s.error = e;
      s.errorAt = now;
    }
    if (had) notify(s, undefined);
    throw e;
  }
}

/** Tests and the demo switch clusters in-process. */
export function resetWiring(): void {
  const listeners = holder.__meshdx?.listeners;
  holder.__meshdx?.cluster?.transport.close();
  holder.__meshdx = undefined;
  if (listeners) state().listeners = listeners;
}

/** What every fan-out to proxies needs: the cluster, where Istio lives, and its bounds. */
export function proxyFanout() {
  const c = cluster();
  const e = env();
  return {
    transport: c.transport,
    kc: c.kc,
    istioNamespace: e.MESHDX_ISTIO_NAMESPACE,
    concurrency: e.MESHDX_PROXY_CONCURRENCY,
    timeoutMs: e.MESHDX_PROXY_TIMEOUT_MS,
  };
}
