/**
 * The registry of cluster runtimes: the only process-wide holder of meshdx's state. Next may load
 * a module more than once (route bundles, dev reloads), so it lives on globalThis; everything
 * else about a cluster lives in its ClusterRuntime.
 *
 * A runtime is started on first use of its context and stopped after a while unused (except
 * the default context's, which keeps recording history). The kubeconfig is re-read when its
 * files change: a context whose cluster or credentials changed, or that is gone, is stopped and
 * a new runtime starts on the next request.
 */
import { loadEnv, type MeshdxEnv } from '../env';
import {
  ClusterConfigError,
  clusterSourceFingerprint,
  contextSource,
  isClusterConfigError,
  listContexts,
  loadClusterConfig,
  type ContextEntry,
  type LoadedClusterConfig,
  type SourceOptions,
} from '../kube/source';
import { ClusterRuntime, storeFileFor } from './runtime';

interface Registry {
  env: MeshdxEnv;
  runtimes: Map<string, ClusterRuntime>;
  config?: LoadedClusterConfig;
  configError?: ClusterConfigError;
  /** clusterSourceFingerprint when the configuration (or its error) was read. */
  fingerprint?: string;
  checkedAt: number;
  errorAt: number;
  sweeper?: NodeJS.Timeout;
}

/** A configuration error is re-checked after this long, so fixing a kubeconfig needs no restart. */
const RETRY_CONFIG_MS = 5_000;
/**
 * How often the kubeconfig file(s) are stat'ed: a rewritten file (a corrected server address, a
 * new context) is picked up within this long, without a restart.
 */
export const RECHECK_KUBECONFIG_MS = 3_000;
const SWEEP_EVERY_MS = 60_000;

const holder = globalThis as typeof globalThis & { __meshdxRegistry?: Registry };

function registry(): Registry {
  if (!holder.__meshdxRegistry) {
    holder.__meshdxRegistry = {
      env: loadEnv(),
      runtimes: new Map(),
      checkedAt: 0,
      errorAt: 0,
    };
  }
  return holder.__meshdxRegistry;
}

/** meshdx's validated settings (the environment, read once). */
export function settings(): MeshdxEnv {
  return registry().env;
}

function sourceOptions(r: Registry): SourceOptions {
  return { kubeconfig: r.env.MESHDX_KUBECONFIG, context: r.env.MESHDX_CONTEXT };
}

/** The kubeconfig as it is now (re-read when its files changed), or the error that says why not. */
function config(r: Registry): LoadedClusterConfig {
  const now = Date.now();
  const opts = sourceOptions(r);
  if (now - r.checkedAt < RECHECK_KUBECONFIG_MS) {
    if (r.config) return r.config;
    if (r.configError) throw r.configError;
  }
  r.checkedAt = now;
  if (clusterSourceFingerprint(opts) === r.fingerprint) {
    if (r.config) return r.config;
    if (r.configError && now - r.errorAt < RETRY_CONFIG_MS) throw r.configError;
  }
  r.checkedAt = now;
  r.fingerprint = clusterSourceFingerprint(opts);
  try {
    const cfg = loadClusterConfig(opts);
    if (!cfg) {
      throw new ClusterConfigError(
        'NO_CLUSTER',
        'no cluster configured: no --kubeconfig, no KUBECONFIG, no ~/.kube/config and not running in a cluster',
        'Set KUBECONFIG (or pass --kubeconfig), deploy meshdx in the cluster, or run `npm run demo` for the simulated cluster.',
      );
    }
    r.config = cfg;
    r.configError = undefined;
    dropChanged(r, cfg);
    return cfg;
  } catch (e) {
    if (isClusterConfigError(e)) {
      r.configError = e;
      r.errorAt = now;
      r.config = undefined;
      stopAllOf(r);
    }
    throw e;
  }
}

/** Stops the runtimes whose context is gone or now points at another cluster or credentials. */
function dropChanged(r: Registry, cfg: LoadedClusterConfig): void {
  for (const [name, rt] of r.runtimes) {
    let identity: string | null = null;
    try {
      identity = contextSource(cfg, name).identity;
    } catch {
      identity = null;
    }
    if (identity !== rt.source.identity) {
      rt.stop();
      r.runtimes.delete(name);
    }
  }
}

function stopAllOf(r: Registry): void {
  for (const rt of r.runtimes.values()) rt.stop();
  r.runtimes.clear();
}

function sweep(r: Registry): void {
  const idleMs = r.env.MESHDX_CONTEXT_IDLE_MINUTES * 60_000;
  const now = Date.now();
  const def = r.config?.defaultContext;
  for (const [name, rt] of r.runtimes) {
    if (name !== def && now - rt.lastUsed > idleMs) {
      rt.stop();
      r.runtimes.delete(name);
    }
  }
}

/**
 * The runtime of `context` (absent: the default context), started on first use. Throws a
 * ClusterConfigError when no cluster is configured, UnknownContextError for a name the
 * kubeconfig does not have.
 */
export function runtimeFor(context?: string | null): ClusterRuntime {
  const r = registry();
  const cfg = config(r);
  const source = contextSource(cfg, context || null);
  let rt = r.runtimes.get(source.context);
  if (rt && rt.source.identity !== source.identity) {
    rt.stop();
    rt = undefined;
  }
  if (!rt) {
    const isDefault = source.context === cfg.defaultContext;
    rt = new ClusterRuntime(
      source,
      r.env,
      storeFileFor(r.env.MESHDX_DB, source.context, isDefault),
    ).start();
    r.runtimes.set(source.context, rt);
    if (!r.sweeper) {
      r.sweeper = setInterval(() => sweep(r), SWEEP_EVERY_MS);
      r.sweeper.unref();
    }
  }
  return rt.touch();
}

/** The contexts meshdx can show, for the header's picker and GET /api/contexts. */
export function contexts(): { contexts: (ContextEntry & { running: boolean })[]; default: string } {
  const r = registry();
  const cfg = config(r);
  return {
    default: cfg.defaultContext,
    contexts: listContexts(cfg).map((c) => ({ ...c, running: r.runtimes.has(c.name) })),
  };
}

/** The runtimes now running (health, tests). */
export function runningRuntimes(): ClusterRuntime[] {
  return [...registry().runtimes.values()];
}

/** Stops every runtime and forgets the configuration (tests, and a server that shuts down). */
export function resetRegistry(): void {
  const r = holder.__meshdxRegistry;
  if (!r) return;
  stopAllOf(r);
  if (r.sweeper) clearInterval(r.sweeper);
  holder.__meshdxRegistry = undefined;
}
