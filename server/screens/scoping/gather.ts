/**
 * Gathers everything the Scoping analysis needs in one fan-out: the cluster's objects, then per
 * proxy (bounded concurrency, per-call timeout) its active cluster count (:15090), its
 * per-cluster usage (Envoy admin /stats over port-forward) and its access log (pods/log, tail
 * bounded); Prometheus when configured; istiod push health. Unreachable proxies stay unknown
 * (null), never 0; proxies not read by the deadline are listed as late.
 *
 * At fleet scale, with Prometheus: every proxy's active count comes from the fleet's instant
 * queries (server/prometheus/fleet.ts) and each workload's destinations from
 * `istio_requests_total` (./prometheus.ts), both asked before any proxy is. A workload whose
 * every running proxy Prometheus holds fresh series for, istio_build included (the same stats
 * extension writes istio_requests_total, so the scrape keeps Istio's metrics for it), is known
 * from Prometheus: none of its proxies is read, and no request series over the window means it
 * called nothing. Only the other workloads are sampled, one proxy each, for what Prometheus
 * could not say (per-cluster usage, access log, the service/non-service split), the replicas
 * with the same count sharing the sample's split. Proxies without a usable series are read one
 * by one as before.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { GatherSummary, IstiodPush } from '../../../lib/api/scoping-view';
import { mapBounded } from '../../../lib/proxies/pool';
import type {
  ObservationSource,
  ScopingInput,
  TrafficObservation,
} from '../../../lib/scoping/types';
import { istiodPods } from '../../envoy/istiod';
import type { EnvoyInitTimes } from '../../envoy/init-times';
import { scrapeProxyStats } from '../../envoy/scrape';
import type { Pod } from '../../../lib/kube/types';
import { listIstioConfig, listNamespaces, listPods, listServices } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';
import { promOutcome, readPromFleet } from '../../prometheus/fleet';
import { promFleetProblem, type PromFleet } from '../../../lib/proxies/prom-fleet';
import { LastReads, ViewDeadline } from '../deadline';
import type { LatePart } from '../../../lib/api/late';
import { readAccessLogUsage } from './access-logs';
import {
  shareSampledSplit,
  silentWorkloads,
  workloadKeys,
  workloadsKnownFromPrometheus,
  type ProxyAnswer,
} from '../../../lib/scoping/prometheus-known';
import { readEnvoyUsage } from './envoy-usage';
import { readPrometheusUsage } from './prometheus';
import { describeImplausible } from '../../../lib/plausible/checks';
import { pushNotRead, readIstiodPush } from './push-health';
import {
  genericReason,
  observationWindow,
  scopingTargets,
  tally,
} from '../../../lib/scoping/targets';
import { podKey } from '../../../lib/refs/pod-ref';

export interface GatherDeps {
  transport: KubeTransport;
  kc: KubeConfig;
  /** Where istiod (and ztunnel) run. */
  istioNamespace: string;
  /** Istio's root namespace (the mesh config's); absent, istioNamespace. */
  rootNamespace?: () => Promise<string>;
  concurrency: number;
  timeoutMs: number;
  /** Access-log lines read per proxy (default 2000). */
  logTailLines?: number;
  prometheusUrl?: string;
  /** A Prometheus sample older than this makes a proxy's count unknown (default 120 s). */
  prometheusMaxAgeMs?: number;
  /** The gather answers by then; proxies not read are listed as late (default 25 s). */
  deadlineMs?: number;
  /** Where scraped Envoy init times are kept (the runtime's). */
  envoyInit?: EnvoyInitTimes;
  /** Where the pods come from (the runtime's watch); absent, a list of every pod. */
  pods?: () => Promise<Pod[]>;
  /** How far that source has got, for the answer of a view that could not wait for it. */
  podsDetail?: () => string;
  /** The runtime's last reads: a list late by the deadline is taken from its last read. */
  lastReads?: LastReads;
  /** Skip sources (benchmarks, tests). */
  skip?: { accessLogs?: boolean; envoyStats?: boolean };
}

export interface Gathered {
  input: ScopingInput;
  gather: GatherSummary;
  push: { istiods: IstiodPush[]; error: string | null };
  /** Lists late by the deadline and taken from their last read, named. */
  late?: LatePart[];
}

const MAX_UNREACHABLE_LISTED = 50;

export async function gatherScopingInput(deps: GatherDeps): Promise<Gathered> {
  const started = Date.now();
  const t = deps.transport;
  const tail = deps.logTailLines ?? 2000;
  const deadlineMs = deps.deadlineMs ?? 25_000;
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((r) => {
    deadlineTimer = setTimeout(r, deadlineMs);
    deadlineTimer.unref();
  });
  // Prometheus is waited for up to half the view's deadline: without its answers every
  // workload's proxy is read through the API server instead, which takes longer still
  const promTimeoutMs = Math.max(deps.timeoutMs * 2, Math.floor(deadlineMs / 2));
  const fleetPromise: Promise<PromFleet | null> = deps.prometheusUrl
    ? readPromFleet({
        baseUrl: deps.prometheusUrl,
        timeoutMs: promTimeoutMs,
        fetchImpl: fetch,
      })
    : Promise.resolve(null);
  // the analysis cannot be made without these: past the deadline the view answers 503 naming
  // which are still being read (the reads go on; the runtime's pod watch fills in meanwhile)
  const view = new ViewDeadline('Scoping', deadlineMs);
  const reads = deps.lastReads ?? new LastReads();
  const [namespaces, pods, services, istio, rootNamespace] = await Promise.all([
    view.needOrLast('namespaces', reads, 'namespaces', listNamespaces(t)),
    view.need(
      'pods',
      deps.pods ? deps.pods().then((items) => ({ items })) : listPods(t),
      deps.podsDetail,
    ),
    view.needOrLast('services', reads, 'services', listServices(t)),
    view.needOrLast('Istio configuration', reads, 'istio-config', listIstioConfig(t)),
    deps.rootNamespace
      ? view.needOrLast('mesh config', reads, 'root-namespace', deps.rootNamespace())
      : deps.istioNamespace,
  ]);
  // windows measured against pod start times are on the cluster's clock
  const now = t.clusterNow();
  const targets = scopingTargets(pods.items);
  const istiods = istiodPods(pods.items, deps.istioNamespace);
  // istiod's push health is read by the view's deadline too: past it, each replica not read is
  // said to be late (not unreachable) and the read is not waited for
  const pushLate = (p: Pod): IstiodPush =>
    pushNotRead(p.metadata.name, `late: not read within the view's ${deadlineMs} ms deadline`);
  const pushDue = new Promise<void>((r) =>
    setTimeout(r, Math.max(0, started + deadlineMs - Date.now())).unref(),
  );
  const pushPromise = Promise.all(
    istiods.map((p) =>
      Promise.race([readIstiodPush(t, p, deps.timeoutMs), pushDue.then(() => pushLate(p))]),
    ),
  );
  // the window the proxies have been counting for, as the per-proxy reads would find it
  const window1 = observationWindow(
    targets.flatMap((tg) =>
      tg.notRunning === null && tg.startedMs !== null ? [tg.startedMs] : [],
    ),
    now.getTime(),
  );
  const promSeconds = window1 ? (Date.parse(window1.end) - Date.parse(window1.start)) / 1000 : 3600;
  const usagePromise = deps.prometheusUrl
    ? readPrometheusUsage(deps.prometheusUrl, promSeconds, promTimeoutMs)
    : null;
  const [fleet, promUsage] = await Promise.all([fleetPromise, usagePromise]);
  const countsPrometheusError =
    fleet !== null && deps.prometheusUrl ? promFleetProblem(fleet, deps.prometheusUrl) : null;
  const fleetUsable = fleet !== null && countsPrometheusError === null;
  const maxAgeMs = deps.prometheusMaxAgeMs ?? 120_000;
  const workloadKey = workloadKeys(pods.items);
  const knownFromProm =
    fleetUsable && promUsage !== null && promUsage.error === null
      ? workloadsKnownFromPrometheus(targets, workloadKey, (tg) =>
          promOutcome(fleet, tg.namespace, tg.pod, maxAgeMs),
        )
      : new Set<string>();
  /** Workloads whose usage sample is taken (one running proxy each, with Prometheus counts). */
  const sampledWorkloads = new Set<string>();

  const answers = await mapBounded<(typeof targets)[number], ProxyAnswer>(
    targets,
    deps.concurrency,
    async (tg) => {
      const base = { namespace: tg.namespace, pod: tg.pod };
      if (tg.notRunning !== null) {
        return {
          count: { ...base, active: null, service: null },
          countFrom: null,
          sampled: false,
          observations: [],
          startMs: null,
          unreachable: tg.notRunning,
        };
      }
      const fromProm = fleetUsable ? promOutcome(fleet, tg.namespace, tg.pod, maxAgeMs) : null;
      const promActive = fromProm?.ok ? fromProm.stats.activeClusters : null;
      const pk = podKey(tg.namespace, tg.pod);
      const wk = workloadKey.get(pk) ?? pk;
      // known from Prometheus: nothing to read; else with a count from Prometheus, only the
      // workload's first proxy is read for its usage
      const known = promActive !== null && knownFromProm.has(wk);
      const sample = !known && (promActive === null || !sampledWorkloads.has(wk));
      if (promActive !== null) sampledWorkloads.add(wk);
      if (known) {
        return {
          count: { ...base, active: promActive, service: null },
          countFrom: 'prometheus' as const,
          sampled: false,
          observations: [],
          startMs: tg.startedMs,
          unreachable: null,
        };
      }
      const [scrape, usage, logs] = await Promise.all([
        promActive !== null
          ? null
          : scrapeProxyStats(t, tg.namespace, tg.pod, deps.timeoutMs, deps.envoyInit),
        deps.skip?.envoyStats || !sample
          ? null
          : readEnvoyUsage(deps.kc, tg.namespace, tg.pod, deps.timeoutMs),
        deps.skip?.accessLogs || !sample
          ? null
          : readAccessLogUsage(t, tg.namespace, tg.pod, {
              tailLines: tail,
              timeoutMs: deps.timeoutMs,
            }),
      ]);
      const active = promActive ?? (scrape?.ok ? scrape.stats.activeClusters : null);
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
        countFrom: promActive !== null ? 'prometheus' : active !== null ? 'scrape' : null,
        sampled: sample,
        observations,
        startMs,
        unreachable:
          active !== null
            ? null
            : scrape && !scrape.ok
              ? scrape.reason
              : 'no envoy_cluster_manager_active_clusters in the :15090 scrape',
      };
    },
    {
      onThrow: (e, tg) => ({
        count: { namespace: tg.namespace, pod: tg.pod, active: null, service: null },
        countFrom: null,
        sampled: false,
        observations: [],
        startMs: null,
        unreachable: e instanceof Error ? e.message : String(e),
      }),
      deadline,
      late: (tg) => {
        // a proxy not read by the deadline still has its count when Prometheus gave one
        const o =
          fleetUsable && tg.notRunning === null
            ? promOutcome(fleet, tg.namespace, tg.pod, maxAgeMs)
            : null;
        const active = o?.ok ? o.stats.activeClusters : null;
        return {
          count: { namespace: tg.namespace, pod: tg.pod, active, service: null },
          countFrom: active !== null ? ('prometheus' as const) : null,
          sampled: false,
          observations: [],
          startMs: null,
          unreachable:
            active !== null
              ? null
              : (tg.notRunning ?? `late: not read within the view's ${deadlineMs} ms deadline`),
        };
      },
    },
  );
  clearTimeout(deadlineTimer);
  shareSampledSplit(answers, targets, workloadKey);

  const window0 = observationWindow(
    answers.map((a) => a.startMs).filter((s): s is number => s !== null),
    now.getTime(),
  );
  const observations = answers.flatMap((a) => a.observations);
  let prometheus: GatherSummary['prometheus'] = 'off';
  const promReasons: string[] = [];
  let promAvailable = 0;
  if (promUsage !== null) {
    const prom = promUsage;
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
      const silent = silentWorkloads(knownFromProm, prom.observations);
      observations.push(...prom.observations, ...silent);
      promAvailable = prom.observations.length + silent.length;
      // series left out (no workload, or a count that cannot be) are said, never summed as 0
      if (prom.badSamples > 0)
        promReasons.push(
          `${prom.badSamples} istio_requests_total series left out${
            prom.implausible[0] ? `, e.g. ${describeImplausible(prom.implausible[0])}` : ''
          }`,
        );
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
      rootNamespace,
      istioNamespace: deps.istioNamespace,
    },
    gather: {
      durationMs: Date.now() - started,
      concurrency: deps.concurrency,
      timeoutMs: deps.timeoutMs,
      proxies: targets.length,
      countsMeasured: answers.filter((a) => a.count.active !== null).length,
      countsFromPrometheus: answers.filter((a) => a.countFrom === 'prometheus').length,
      countsPrometheusError,
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
    ...(view.late.length > 0 ? { late: [...view.late] } : {}),
  };
}
