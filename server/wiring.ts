import type { KubeConfig } from '@kubernetes/client-node';
import { loadEnv, type MeshdxEnv } from './env';
import {
  ClusterConfigError,
  isClusterConfigError,
  resolveClusterSource,
  type ClusterSource,
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
  error?: ClusterConfigError;
  errorAt?: number;
}

/** A configuration error is re-checked after this long, so fixing a kubeconfig needs no restart. */
const RETRY_CONFIG_MS = 5_000;

// Next may load a module more than once (route bundles); keep one state per process.
const holder = globalThis as typeof globalThis & { __meshdx?: State };

function state(): State {
  holder.__meshdx ??= { env: loadEnv() };
  return holder.__meshdx;
}

export function env(): MeshdxEnv {
  return state().env;
}

/** The cluster meshdx reads, or a ClusterConfigError saying what is wrong and how to fix it. */
export function cluster(): Cluster {
  const s = state();
  if (s.cluster) return s.cluster;
  if (s.error && s.errorAt && Date.now() - s.errorAt < RETRY_CONFIG_MS) throw s.error;
  try {
    const source = resolveClusterSource({
      kubeconfig: s.env.MESHDX_KUBECONFIG,
      context: s.env.MESHDX_CONTEXT,
      simulatedScenario: s.env.MESHDX_SIMULATED,
    });
    if (!source) {
      throw new ClusterConfigError(
        'NO_CLUSTER',
        'no cluster configured: no --kubeconfig, no KUBECONFIG, no ~/.kube/config and not running in a cluster',
        'Set KUBECONFIG (or pass --kubeconfig), deploy meshdx in the cluster, or run `npm run demo` for the simulated cluster.',
      );
    }
    s.cluster = { source, kc: source.kc, transport: new KubeTransport(source.kc) };
    s.error = undefined;
    return s.cluster;
  } catch (e) {
    if (isClusterConfigError(e)) {
      s.error = e;
      s.errorAt = Date.now();
    }
    throw e;
  }
}

/** Tests and the demo switch clusters in-process. */
export function resetWiring(): void {
  holder.__meshdx?.cluster?.transport.close();
  holder.__meshdx = undefined;
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
