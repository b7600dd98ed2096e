/**
 * The Scoping use case: gather (cluster objects, per-proxy counts and usage, istiod push health),
 * then the pure analysis. One gather at a time per process; a finished view is served from memory
 * for a short while so navigating back is instant.
 */
import type { ScopingView } from '../../lib/api/scoping-view';
import { buildScopingReport } from '../../lib/scoping/report';
import { gatherScopingInput, type GatherDeps } from '../scoping/gather';
import { env, proxyFanout } from '../wiring';

export const SCOPING_CACHE_MS = 15_000;

interface State {
  job?: Promise<ScopingView>;
  done?: { at: number; view: ScopingView };
}
const holder = globalThis as typeof globalThis & { __meshdxScoping?: State };
const state = (): State => (holder.__meshdxScoping ??= {});

export function scopingDepsFromWiring(): GatherDeps {
  const e = env();
  return {
    ...proxyFanout(),
    prometheusUrl: e.MESHDX_PROMETHEUS,
  };
}

/** Gathers and analyses, uncached. */
export async function computeScoping(deps: GatherDeps): Promise<ScopingView> {
  const g = await gatherScopingInput(deps);
  return { report: buildScopingReport(g.input), gather: g.gather, push: g.push };
}

/** The Scoping view: cached when fresh (unless `refresh`), else from a (joined) gather. */
export async function getScoping(
  opts: { refresh?: boolean; deps?: () => GatherDeps } = {},
): Promise<ScopingView> {
  const s = state();
  if (!opts.refresh && s.done && Date.now() - s.done.at < SCOPING_CACHE_MS) return s.done.view;
  if (!s.job) {
    const job = computeScoping((opts.deps ?? scopingDepsFromWiring)())
      .then((view) => {
        s.done = { at: Date.now(), view };
        return view;
      })
      .finally(() => {
        if (s.job === job) s.job = undefined;
      });
    s.job = job;
  }
  return s.job;
}

/** Forget the cached view (tests, after a cluster switch). */
export function resetScopingCache(): void {
  holder.__meshdxScoping = undefined;
}
