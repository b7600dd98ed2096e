/**
 * Bloat over time: a namespace's (or one workload's) clusters per proxy over a window, from one
 * Prometheus range query over the fleet's series (`namespace`, `pod` labels; the step sized to
 * the window, at most MAX_POINTS points), the Sidecar resources that came into force in it, and
 * Scoping's figures for the scope in force now and for its proposal, to set next to what
 * happened. Without MESHDX_PROMETHEUS it says so and how to set it.
 */
import type { BloatView } from '../../../lib/api/bloat-view';
import { markersFor } from '../../../lib/bloat/markers';
import { foldBloat, namespaceClustersQuery, rangeStep, steps } from '../../../lib/bloat/range';
import { workloadOf } from '../../../lib/refs/workload-ref';
import { podProxy, sidecarScopes } from '../../../lib/dataplane/proxy-container';
import type { ScopingReport } from '../../../lib/api/scoping';
import { listIstioConfig } from '../../kube/resources';
import { promGet } from '../../prometheus/query';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import { scopingOf } from './scoping';
import type { RequestScope } from '../../auth/identity';

export const DEFAULT_BLOAT_WINDOW_MS = 3_600_000;

export interface BloatRequest {
  namespace: string;
  workload: string | null;
  /** epoch ms; default the last hour up to now. */
  fromMs?: number;
  toMs?: number;
}

/** Per-proxy clusters Scoping gives the namespace or workload now (null when it has none). */
export function predictionOf(
  report: Pick<ScopingReport, 'namespaces' | 'workloads'>,
  namespace: string,
  workload: string | null,
): { modelled: number | null; proposed: number | null } {
  if (workload !== null) {
    const w = report.workloads.find((x) => x.namespace === namespace && x.name === workload);
    return w ? { modelled: w.clusters.modelled, proposed: w.clusters.predicted } : none;
  }
  const n = report.namespaces.find((x) => x.name === namespace);
  if (!n || n.proxies === 0) return none;
  const per = (v: number) => Math.round((v / n.proxies) * 10) / 10;
  return { modelled: per(n.clusters.modelled), proposed: per(n.clusters.predicted) };
}
const none = { modelled: null, proposed: null };

export async function bloatOf(rt: ClusterRuntime, req: BloatRequest): Promise<BloatView> {
  const url = rt.settings.MESHDX_PROMETHEUS;
  if (!url) {
    return {
      state: 'needs-prometheus',
      message:
        "Cluster counts over time come from Prometheus's range queries over the sidecars' Envoy series; meshdx keeps no history of its own for them.",
      fix: 'Set MESHDX_PROMETHEUS to a Prometheus (or Thanos, Mimir, VictoriaMetrics) that scrapes the sidecars, e.g. MESHDX_PROMETHEUS=http://prometheus.monitoring:9090, and restart meshdx.',
    };
  }
  const toMs = req.toMs ?? Date.now();
  const fromMs = req.fromMs ?? toMs - DEFAULT_BLOAT_WINDOW_MS;
  const stepS = rangeStep(fromMs, toMs);
  // the grid Prometheus answers on: start, start + step, ... (whole seconds)
  const start = Math.ceil(fromMs / 1000) * 1000;
  const query = namespaceClustersQuery(req.namespace);
  const [answer, istio, pods, scoping, rootNamespace] = await Promise.all([
    promGet(
      {
        baseUrl: url,
        timeoutMs: Math.min(10_000, rt.settings.MESHDX_VIEW_DEADLINE_MS),
        fetchImpl: fetch,
      },
      'query_range',
      {
        query,
        start: String(start / 1000),
        end: String(Math.floor(toMs / 1000)),
        step: `${stepS}s`,
      },
    ),
    listIstioConfig(rt.transport),
    rt.cache.ready().then(() => rt.cache.livePods()),
    scopingOf(rt).then(
      (v) => ({ ...predictionOf(v.report, req.namespace, req.workload), error: null }),
      (e: unknown) => ({
        ...none,
        error: `Scoping could not be computed: ${e instanceof Error ? e.message : String(e)}`,
      }),
    ),
    rt.rootNamespace(),
  ]);
  if (answer.error) return { state: 'error', prometheus: url, query, message: answer.error };
  const podWorkload = new Map<string, string>();
  const unscopable = new Set<string>();
  for (const p of pods) {
    if ((p.metadata.namespace ?? 'default') !== req.namespace) continue;
    podWorkload.set(p.metadata.name, workloadOf(p).name);
    const proxy = podProxy(p);
    if (proxy && !sidecarScopes(proxy.placement)) unscopable.add(p.metadata.name);
  }
  const folded = foldBloat(
    req.namespace,
    answer.series.map((s) => ({ pod: s.metric.pod ?? '', samples: s.samples })),
    (pod) => podWorkload.get(pod) ?? null,
    steps(start, toMs, stepS),
    (pod) => unscopable.has(pod),
  );
  const line =
    req.workload === null
      ? folded.namespace
      : (folded.workloads.find((w) => w.name === req.workload) ?? {
          name: req.workload,
          pods: 0,
          points: folded.namespace.points.map((p) => ({
            t: p.t,
            proxies: 0,
            avg: null,
            max: null,
          })),
        });
  // Sidecar times are on the cluster's clock, samples on Prometheus's (wall time)
  const offset = rt.now().getTime() - Date.now();
  const markers = markersFor(
    istio.sidecars,
    req.namespace,
    rootNamespace,
    fromMs + offset,
    toMs + offset,
  ).flatMap((m) =>
    m.at !== null && m.from !== null ? [{ ...m, at: m.at - offset, from: m.from }] : [],
  );
  return {
    state: 'ok',
    prometheus: url,
    namespace: req.namespace,
    workload: req.workload,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    stepSeconds: stepS,
    query,
    line,
    workloads: folded.workloads.map((w) => ({ name: w.name, pods: w.pods })),
    markers,
    prediction: scoping,
    unattributedPods: folded.unattributedPods,
    unscopablePods: folded.unscopablePods,
    implausibleSamples: folded.implausible,
  };
}

export function getBloat(scope: RequestScope, req: BloatRequest): Promise<BloatView> {
  return bloatOf(runtimeFor(scope), req);
}
