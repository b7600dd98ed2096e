/**
 * Gathers everything the Scoping analysis needs in one fan-out: the cluster's objects, then per
 * proxy (bounded concurrency, per-call timeout) its active cluster count (:15090), its
 * per-cluster usage (Envoy admin /stats over port-forward) and its access log (pods/log, tail
 * bounded); Prometheus when configured; istiod push health. Unreachable proxies stay unknown
 * (null), never 0.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { GatherSummary, IstiodPush } from '../../../lib/api/scoping-view';
import { mapBounded } from '../../../lib/proxies/pool';
import type {
  ObservationSource,
  ProxyClusterCount,
  ScopingInput,
  TrafficObservation,
} from '../../../lib/scoping/types';
import { istiodPods } from '../../envoy/istiod';
import type { EnvoyInitTimes } from '../../envoy/init-times';
import { scrapeProxyStats } from '../../envoy/scrape';
import { listIstioConfig, listNamespaces, listPods, listServices } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';
import { readAccessLogUsage } from './access-logs';
import { readEnvoyUsage } from './envoy-usage';
import { readPrometheusUsage } from './prometheus';
import { readIstiodPush } from './push-health';
import { genericReason, observationWindow, scopingTargets, tally } from './targets';

export interface GatherDeps {
  transport: KubeTransport;
  kc: KubeConfig;
  istioNamespace: string;
  concurrency: number;
  timeoutMs: number;
  /** Access-log lines read per proxy (default 2000). */
  logTailLines?: number;
  prometheusUrl?: string;
  /** Where scraped Envoy init times are kept (the runtime's). */
  envoyInit?: EnvoyInitTimes;
  /** Skip sources (benchmarks, tests). */
  skip?: { accessLogs?: boolean; envoyStats?: boolean };
}

export interface Gathered {
  input: ScopingInput;
  gather: GatherSummary;
  push: { istiods: IstiodPush[]; error: string | null };
}

interface ProxyAnswer {
  count: ProxyClusterCount;
  observations: TrafficObservation[];
  startMs: number | null;
  unreachable: string | null;
}

const MAX_UNREACHABLE_LISTED = 50;

export async function gatherScopingInput(deps: GatherDeps): Promise<Gathered> {
  const started = Date.now();
  const t = deps.transport;
  const tail = deps.logTailLines ?? 2000;
  const [namespaces, pods, services, istio] = await Promise.all([
    listNamespaces(t),
    listPods(t),
    listServices(t),
    listIstioConfig(t),
  ]);
  // windows measured against pod start times are on the cluster's clock
  const now = t.clusterNow();
  const targets = scopingTargets(pods.items);
  const istiods = istiodPods(pods.items, deps.istioNamespace);
  const pushPromise = Promise.all(istiods.map((p) => readIstiodPush(t, p, deps.timeoutMs)));

  const answers = await mapBounded<(typeof targets)[number], ProxyAnswer>(
    targets,
    deps.concurrency,
    async (tg) => {
      const base = { namespace: tg.namespace, pod: tg.pod };
      if (tg.notRunning !== null) {
        return {
          count: { ...base, active: null, service: null },
          observations: [],
          startMs: null,
          unreachable: tg.notRunning,
        };
      }
      const [scrape, usage, logs] = await Promise.all([
        scrapeProxyStats(t, tg.namespace, tg.pod, deps.timeoutMs, deps.envoyInit),
        deps.skip?.envoyStats
          ? null
          : readEnvoyUsage(deps.kc, tg.namespace, tg.pod, deps.timeoutMs),
        deps.skip?.accessLogs
          ? null
          : readAccessLogUsage(t, tg.namespace, tg.pod, {
              tailLines: tail,
              timeoutMs: deps.timeoutMs,
            }),
      ]);
      const active = scrape.ok ? scrape.stats.activeClusters : null;
      const u = usage?.usage ?? null;
      const observations = [usage?.observation, logs?.observation].filter(
        (o): o is TrafficObservation => o !== undefined,
      );
      const startMs = usage?.observation.available
        ? tg.startedMs
        : logs?.observation.available
          ? (logs.usage?.firstMs ?? tg.startedMs)
          : null;
      return {
        count: {
          ...base,
          active,
          service: active !== null && u ? u.serviceClusters : null,
          ...(active !== null && u ? { inbound: u.inboundClusters } : {}),
        },
        observations,
        startMs,
        unreachable: scrape.ok
          ? active === null
            ? 'no envoy_cluster_manager_active_clusters in the :15090 scrape'
            : null
          : scrape.reason,
      };
    },
    {
      onThrow: (e, tg) => ({
        count: { namespace: tg.namespace, pod: tg.pod, active: null, service: null },
        observations: [],
        startMs: null,
        unreachable: e instanceof Error ? e.message : String(e),
      }),
    },
  );

  const window0 = observationWindow(
    answers.map((a) => a.startMs).filter((s): s is number => s !== null),
    now.getTime(),
  );
  const observations = answers.flatMap((a) => a.observations);
  let prometheus: GatherSummary['prometheus'] = 'off';
  const promReasons: string[] = [];
  let promAvailable = 0;
  if (deps.prometheusUrl) {
    const seconds = window0 ? (Date.parse(window0.end) - Date.parse(window0.start)) / 1000 : 3600;
    const prom = await readPrometheusUsage(deps.prometheusUrl, seconds, deps.timeoutMs * 2);
    prometheus = prom.error ? 'error' : 'ok';
    if (prom.error) {
      // unavailable for every proxy: shown as not observed by Prometheus, not as "no calls"
      for (const tg of targets) {
        observations.push({
          source: 'prometheus',
          namespace: tg.namespace,
          pod: tg.pod,
          available: false,
          error: prom.error,
          hits: [],
        });
        promReasons.push(prom.error);
      }
    } else {
      observations.push(...prom.observations);
      promAvailable = prom.observations.length;
    }
  }

  const unreachable = answers
    .map((a) => ({ namespace: a.count.namespace, pod: a.count.pod, reason: a.unreachable }))
    .filter((u): u is { namespace: string; pod: string; reason: string } => u.reason !== null);
  const coverage = (source: ObservationSource) => {
    const obs = observations.filter((o) => o.source === source && o.pod !== undefined);
    return {
      source,
      asked: obs.length,
      available: obs.filter((o) => o.available).length,
      reasons: tally(
        obs
          .filter((o) => !o.available)
          .map((o) => genericReason(o.error ?? 'unavailable', o.namespace, o.pod ?? '')),
      ),
    };
  };
  const istiodsPush = await pushPromise;
  return {
    input: {
      generatedAt: now.toISOString(),
      pods: pods.items,
      services: services.items,
      serviceEntries: istio.serviceEntries,
      sidecars: istio.sidecars,
      destinationRules: istio.destinationRules,
      virtualServices: istio.virtualServices,
      namespaces: namespaces.items,
      proxyCounts: answers.map((a) => a.count),
      observations,
      window: window0,
      rootNamespace: deps.istioNamespace,
      istioNamespace: deps.istioNamespace,
    },
    gather: {
      durationMs: Date.now() - started,
      concurrency: deps.concurrency,
      timeoutMs: deps.timeoutMs,
      proxies: targets.length,
      countsMeasured: answers.filter((a) => a.count.active !== null).length,
      unreachable: unreachable.slice(0, MAX_UNREACHABLE_LISTED),
      unreachableTotal: unreachable.length,
      sources: [
        coverage('envoy-stats'),
        coverage('access-log'),
        deps.prometheusUrl
          ? {
              source: 'prometheus' as const,
              asked: prometheus === 'ok' ? promAvailable : targets.length,
              available: promAvailable,
              reasons: tally(promReasons),
            }
          : { source: 'prometheus' as const, asked: 0, available: 0, reasons: [] },
      ],
      logTailLines: tail,
      prometheus,
    },
    push: {
      istiods: istiodsPush,
      error:
        istiods.length === 0
          ? `no running istiod pod (label app=istiod) in ${deps.istioNamespace}: push health unavailable`
          : null,
    },
  };
}
