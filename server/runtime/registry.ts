/**
 * The registry of cluster runtimes, kept in the process-wide holder (process-state.ts). Next may load
 * a module more than once (route bundles, dev reloads), so it lives in the process-wide holder; everything
 * else about a cluster lives in its ClusterRuntime.
 *
 * A runtime is started on first use of its context and stopped after a while unused (except
 * the default context's, which keeps recording history). The kubeconfig is re-read when its
 * files change: a context whose cluster or credentials changed, or that is gone, is stopped and
 * a new runtime starts on the next request.
 */
import { authError } from '../../lib/auth/problems';
import type { RequestScope } from '../auth/identity';
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
import { getSlot, setSlot } from './process-state';
import { ClusterRuntime, storeFileFor } from './runtime';
import { UserRuntimes, type UserIdentity } from './users';

interface Registry {
  env: MeshdxEnv;
  runtimes: Map<string, ClusterRuntime>;
  /** Per-user runtimes (MESHDX_AUTH token or header), beside their context's base runtime. */
  users: UserRuntimes;
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

declare module './process-state' {
  interface ProcessSlots {
    registry: Registry;
  }
}

function registry(): Registry {
  let r = getSlot('registry');
  if (!r) {
    r = {
      env: loadEnv(),
      runtimes: new Map(),
      users: new UserRuntimes(),
      checkedAt: 0,
      errorAt: 0,
    };
    setSlot('registry', r);
  }
  return r;
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
      r.users.stopContext(name);
      rt.stop();
      r.runtimes.delete(name);
    }
  }
}

function stopAllOf(r: Registry): void {
  r.users.stopAll();
  for (const rt of r.runtimes.values()) rt.stop();
  r.runtimes.clear();
}

function sweep(r: Registry): void {
  const idleMs = r.env.MESHDX_CONTEXT_IDLE_MINUTES * 60_000;
  const now = Date.now();
  const def = r.config?.defaultContext;
  r.users.sweep(idleMs, now);
  for (const [name, rt] of r.runtimes) {
    if (name !== def && now - rt.lastUsed > idleMs) {
      r.users.stopContext(name);
      rt.stop();
      r.runtimes.delete(name);
    }
  }
}

/**
 * The runtime a request's scope acts on: its context's (null: the default context) as meshdx
 * itself when MESHDX_AUTH=none or the scope says so (asMeshdx), otherwise the runtime of the
 * scope's user (server/auth), which makes every API call as that user. Throws a
 * ClusterConfigError when no cluster is configured, UnknownContextError for a name the
 * kubeconfig does not have, a 401 when a token session belongs to another context.
 */
export function runtimeFor(scope: RequestScope): ClusterRuntime {
  const id = scope.identity;
  if (registry().env.MESHDX_AUTH === 'none' || id.mode === 'none')
    return baseRuntimeFor(scope.context);
  return userRuntimeFor(scope.context, id);
}

/** The runtime of `context` as the user `id` (token or header mode). */
export function userRuntimeFor(
  context: string | null | undefined,
  id: UserIdentity,
): ClusterRuntime {
  const r = registry();
  const base = baseRuntimeFor(context);
  if (id.mode === 'token' && id.context !== base.context)
    throw authError(
      'SESSION_OTHER_CONTEXT',
      `you signed in with a token for context ${JSON.stringify(id.context)}, not ${JSON.stringify(base.context)}`,
    );
  return r.users.get(base, id, r.env);
}

/** Stops every runtime of a user (logout); returns how many were running. */
export function stopUserRuntimes(id: UserIdentity): number {
  return getSlot('registry')?.users.stopIdentity(id) ?? 0;
}

/**
 * The runtime of `context` as meshdx itself (its kubeconfig or ServiceAccount identity): the one
 * that records the context's history. For server start-up and health; request handlers use
 * runtimeFor, which honours the request's identity.
 */
export function baseRuntimeFor(context?: string | null): ClusterRuntime {
  const r = registry();
  const cfg = config(r);
  const source = contextSource(cfg, context || null);
  let rt = r.runtimes.get(source.context);
  if (rt && rt.source.identity !== source.identity) {
    r.users.stopContext(source.context);
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

/** meshdx's own runtimes now running, one per context (health, tests). */
export function runningRuntimes(): ClusterRuntime[] {
  return [...registry().runtimes.values()];
}

/** The users' runtimes now running (tests, health's count). */
export function runningUserRuntimes(): ClusterRuntime[] {
  return registry().users.list();
}

/** Stops every runtime and forgets the configuration (tests, and a server that shuts down). */
export function resetRegistry(): void {
  const r = getSlot('registry');
  if (!r) return;
  stopAllOf(r);
  if (r.sweeper) clearInterval(r.sweeper);
  setSlot('registry', undefined);
}
