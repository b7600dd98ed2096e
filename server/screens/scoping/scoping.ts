/**
 * The Scoping use case: gather (cluster objects, per-proxy counts and usage, istiod push health),
 * then the pure analysis. One gather at a time per cluster; a finished view is served from
 * memory for a short while so navigating back is instant.
 */
import type { ScopingView } from '../../../lib/api/scoping-view';
import { buildScopingReport } from '../../../lib/scoping/report';
import { Memo } from '../../runtime/memo';
import { runtimeFor } from '../../runtime/registry';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import { lastReads, podListDetail } from '../deadline';
import { gatherScopingInput, type GatherDeps } from './gather';
import type { RequestScope } from '../../auth/identity';

export const SCOPING_CACHE_MS = 15_000;

export function scopingDeps(rt: ClusterRuntime): GatherDeps {
  return {
    transport: rt.transport,
    kc: rt.kc,
    istioNamespace: rt.settings.MESHDX_ISTIO_NAMESPACE,
    rootNamespace: () => rt.rootNamespace(),
    concurrency: rt.settings.MESHDX_PROXY_CONCURRENCY,
    timeoutMs: rt.settings.MESHDX_PROXY_TIMEOUT_MS,
    prometheusUrl: rt.settings.MESHDX_PROMETHEUS,
    prometheusMaxAgeMs: rt.settings.MESHDX_PROMETHEUS_MAX_AGE_S * 1000,
    deadlineMs: rt.settings.MESHDX_VIEW_DEADLINE_MS,
    envoyInit: rt.envoyInit,
    // the runtime's watch-fed pods: no list of every pod per gather
    pods: async () => {
      await rt.pods.whenListed();
      return rt.cache.livePods();
    },
    podsDetail: () => podListDetail(rt),
    lastReads: lastReads(rt),
  };
}

/** Gathers and analyses, uncached. */
export async function computeScoping(deps: GatherDeps): Promise<ScopingView> {
  const g = await gatherScopingInput(deps);
  return {
    report: buildScopingReport(g.input),
    gather: g.gather,
    push: g.push,
    ...(g.late ? { late: g.late } : {}),
  };
}

const scopingScreen = defineScreen('scoping', () => new Memo<ScopingView>(SCOPING_CACHE_MS));

/** The Scoping view of a runtime: cached when fresh (unless `refresh`), else a (joined) gather. */
export function scopingOf(
  rt: ClusterRuntime,
  opts: { refresh?: boolean; deps?: GatherDeps } = {},
): Promise<ScopingView> {
  const memo = rt.screen(scopingScreen);
  return memo.get(() => computeScoping(opts.deps ?? scopingDeps(rt)), opts);
}

export function getScoping(
  scope: RequestScope,
  opts: { refresh?: boolean } = {},
): Promise<ScopingView> {
  return scopingOf(runtimeFor(scope), opts);
}
