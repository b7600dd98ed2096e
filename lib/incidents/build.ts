import type { EndpointSlice } from '../kube/types';
import type { IstioConfig } from '../kube/istio-config';
import type { PodInterval } from '../ledger/types';
import type { IpHistory } from '../ledger/ip-history';
import type { Finding } from '../findings/types';
import type { IncidentsView, StaleHost } from '../api/incidents';
import { lagSeries, type ClientLag } from './lag';
import {
  collectRequests,
  type Collected,
  type AttributedRequest,
  type RequestFilter,
} from './collect';
import type { LogInput } from './log-input';
import { bucketSizeMs, failureBuckets } from './chart';
import { rollouts, terminationMarkers } from './markers';
import {
  maxConcurrentTerminations,
  peakHolders,
  requestRows,
  serviceName,
  upstreamPodRows,
} from './rows';
import { resilienceFor, destinationRuleByHost } from './resilience';
import { recommendForService, type ServiceEvidence } from './recommend';
import { layerTimelines, type LayerFailure, type LayerInputs } from './layers';
import { parseServiceFqdn } from '../refs/service-host';
import { parsePodRef, podIdKey, podKey } from '../refs/pod-ref';
import { workloadNameKey, workloadOfOwner } from '../refs/workload-ref';

/** The destination rules and routes are the mesh's, for the resilience settings of a service. */
export interface IncidentsInput extends Pick<IstioConfig, 'destinationRules' | 'virtualServices'> {
  now: number;
  filter: RequestFilter;
  logs: readonly LogInput[];
  sourcesSkipped: number;
  /** How the clients were chosen (absent for an upload). */
  clients?: IncidentsView['clients'];
  history: IpHistory;
  /** Every known pod IP interval (for markers, rollouts, end of life). */
  intervals: readonly PodInterval[];
  historyInfo: { source: string; note: string | null };
  endpointSlices: readonly EndpointSlice[];
  /** Grace period (s) by pod uid and by "namespace/workload", from live pods. */
  graceSeconds?: ReadonlyMap<string, number>;
  stale: IncidentsView['stale'];
  maxRequests?: number;
  /** The requests already collected (the store's window): the logs are not read again. */
  collected?: Collected;
  /** Where the window's failures come from (the store); absent for an upload. */
  memory?: IncidentsView['memory'];
  /** Per client proxy and deleted pod, from recorded failures. */
  lags?: readonly ClientLag[];
  /** What the layer sampler saw in the window (absent: not sampled, with `layersNote` saying why). */
  layers?: Omit<LayerInputs, 'failures'>;
  layersNote?: string | null;
  /** The cluster's istiod version, for advice that depends on it (null: unknown). */
  istiodVersion?: string | null;
}

const MINUTE = 60_000;

/** Ready endpoints of a Kubernetes service, from its EndpointSlices; null when it has none. */
export function readyEndpoints(fqdn: string, slices: readonly EndpointSlice[]): number | null {
  const svc = parseServiceFqdn(fqdn);
  if (!svc) return null;
  const mine = slices.filter(
    (s) =>
      s.metadata.namespace === svc.namespace &&
      s.metadata.labels?.['kubernetes.io/service-name'] === svc.name,
  );
  if (mine.length === 0) return null;
  const ips = new Set<string>();
  for (const s of mine)
    for (const e of s.endpoints ?? [])
      if (e.conditions?.ready !== false) for (const a of e.addresses) ips.add(a);
  return ips.size;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
}

function evidenceFor(
  fqdn: string,
  reqs: readonly AttributedRequest[],
  input: IncidentsInput,
  range: { fromMs: number; toMs: number },
): ServiceEvidence {
  const byFlag: Record<string, number> = {};
  const perClientPod = new Map<string, number>();
  const workloads = new Set<string>();
  let toTerminating = 0;
  let toTerminated = 0;
  let unknown = 0;
  let maxAfterDeletionMs: number | null = null;
  let maxAfterGoneMs: number | null = null;
  let grace: number | null = null;
  for (const r of reqs) {
    for (const f of r.flags) byFlag[f] = (byFlag[f] ?? 0) + 1;
    if (r.state === 'unknown') unknown++;
    if (r.state === 'terminating') {
      toTerminating++;
      maxAfterDeletionMs = Math.max(maxAfterDeletionMs ?? 0, r.afterTerminationMs ?? 0);
    }
    if (r.state === 'terminated') {
      toTerminated++;
      maxAfterGoneMs = Math.max(maxAfterGoneMs ?? 0, r.afterTerminationMs ?? 0);
    }
    if (r.pod && (r.state === 'terminating' || r.state === 'terminated')) {
      const k = `${r.clientName ?? r.source}|${r.pod.uid ?? r.pod.name}`;
      perClientPod.set(k, (perClientPod.get(k) ?? 0) + 1);
      const w = r.owner ? workloadOfOwner(r.owner, r.pod) : null;
      const g =
        input.graceSeconds?.get(podIdKey(r.pod)) ??
        (w ? input.graceSeconds?.get(workloadNameKey(w.namespace, w.name)) : undefined);
      if (g !== undefined) grace = Math.max(grace ?? 0, g);
    }
    if (r.pod) {
      if (r.owner)
        workloads.add(workloadNameKey(r.pod.namespace, workloadOfOwner(r.owner, r.pod).name));
    }
  }
  const subset = reqs.find((r) => r.service?.subset)?.service?.subset ?? null;
  return {
    fqdn,
    subset,
    istiodVersion: input.istiodVersion ?? null,
    count: reqs.length,
    toTerminating,
    toTerminated,
    unknown,
    byFlag,
    replicas: readyEndpoints(fqdn, input.endpointSlices),
    replicasDuring: peakHolders(input.intervals, workloads, range.fromMs, range.toMs) || null,
    concurrentTerminations: maxConcurrentTerminations(
      input.intervals,
      workloads,
      range.fromMs - MINUTE,
      range.toMs + MINUTE,
    ),
    failuresPerClientPod: median([...perClientPod.values()]),
    maxAfterDeletionMs,
    maxAfterGoneMs,
    serverWorkloads: [...workloads].sort(),
    graceSeconds: grace,
    resilience: resilienceFor(fqdn, subset, input.destinationRules, input.virtualServices),
    destinationRule: destinationRuleByHost(fqdn, input.destinationRules),
  };
}

/**
 * The window the chart shows: the URL's, else the failures' span with a minute either side (so
 * the deletions that preceded the first failure are on the axis), never past now.
 */
export function chartWindow(
  filter: Pick<RequestFilter, 'fromMs' | 'toMs'>,
  times: readonly number[],
  now: number,
): { fromMs: number; toMs: number } {
  let first = Infinity;
  let last = -Infinity;
  for (const t of times) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const has = times.length > 0;
  const toMs = filter.toMs ?? (has ? Math.min(Math.max(now, last), last + MINUTE) : now);
  const fromMs = filter.fromMs ?? (has ? first - MINUTE : Math.min(toMs, now) - 15 * MINUTE);
  return { fromMs: Math.min(fromMs, toMs), toMs };
}

/** The whole Incidents view model from logs, pod IP history and the mesh's config. */
export function buildIncidentsView(input: IncidentsInput): IncidentsView {
  const c = input.collected ?? collectRequests(input.logs, input.history, input.filter);
  const times = c.requests.map((r) => r.timeMs).filter((t): t is number => t !== null);
  const { fromMs, toMs } = chartWindow(input.filter, times, input.now);
  const bucketMs = bucketSizeMs(Math.max(0, toMs - fromMs));
  const chart = failureBuckets(c.requests, fromMs, toMs, bucketMs);

  const podIndex = new Map<string, PodInterval>();
  for (const i of input.intervals) {
    podIndex.set(podIdKey(i), i);
  }
  const namespaces = new Set<string>();
  for (const r of c.requests) if (r.pod) namespaces.add(r.pod.namespace);
  const scope = { fromMs, toMs, namespaces };
  const markers = namespaces.size ? terminationMarkers(input.intervals, scope) : [];
  const rolls = namespaces.size ? rollouts(input.intervals, scope) : [];

  const byService = new Map<string, AttributedRequest[]>();
  for (const r of c.requests) {
    const s = serviceName(r);
    if (!s) continue;
    const list = byService.get(s) ?? [];
    list.push(r);
    byService.set(s, list);
  }
  const services: IncidentsView['services'] = [];
  const findings: Finding[] = [];
  for (const [fqdn, reqs] of [...byService.entries()].sort((a, b) => b[1].length - a[1].length)) {
    const e = evidenceFor(fqdn, reqs, input, { fromMs, toMs });
    const byState: Record<string, number> = {};
    for (const r of reqs) byState[r.state] = (byState[r.state] ?? 0) + 1;
    services.push({
      fqdn,
      count: reqs.length,
      byState,
      byFlag: e.byFlag,
      replicas: e.replicas,
      concurrentTerminations: e.concurrentTerminations,
      destinationRule: e.resilience.destinationRule,
      outlier: e.resilience.outlier,
      retries: e.resilience.retries,
    });
    findings.push(...recommendForService(e));
  }
  if (input.stale && input.stale.hosts.length > 0) findings.push(...staleFindings(input.stale));

  const byState: Record<string, number> = {};
  for (const r of c.requests) byState[r.state] = (byState[r.state] ?? 0) + 1;
  return {
    generatedAt: new Date(input.now).toISOString(),
    window: {
      from: input.filter.fromMs !== null ? iso(input.filter.fromMs) : null,
      to: input.filter.toMs !== null ? iso(input.filter.toMs) : null,
    },
    history: { ...input.historyInfo, intervals: input.intervals.length },
    sources: c.sources,
    sourcesSkipped: input.sourcesSkipped,
    clients: input.clients ?? {
      source: 'uploaded log',
      note: null,
      limit: 0,
      chosen: [],
      skipped: [],
      read: 0,
      fromStore: 0,
    },
    lineErrors: c.lineErrors,
    totals: {
      records: c.records,
      failing: c.failing,
      shown: c.requests.length,
      byState,
      outsideWindow: c.outsideWindow,
      inbound: c.inbound,
    },
    chart: {
      from: iso(fromMs),
      to: iso(toMs),
      bucketMs,
      buckets: chart.buckets,
      flags: chart.flags,
      markers,
      rollouts: rolls,
    },
    pods: upstreamPodRows(c.requests, (k) => podIndex.get(k) ?? null),
    requests: requestRows(c.requests, input.maxRequests ?? 500),
    services,
    findings,
    stale: input.stale,
    memory: input.memory ?? null,
    lag: {
      rows: (input.lags ?? []).slice(0, MAX_LAG_ROWS).map((l) => ({
        ...l,
        deletionStartedAt: iso(l.deletionStartedAt),
        lastRequestAt: iso(l.lastRequestAt),
      })),
      series: lagSeries(input.lags ?? [], fromMs, bucketMs).map((p) => ({
        ...p,
        start: iso(p.start),
      })),
    },
    layers: layersPart(c.requests, input),
  };
}

/** Timelines listed (the longest-held first). */
const MAX_LAYER_ROWS = 200;

/** The layer timeline of every failing request to a pod whose deletion had started or that was gone. */
function layersPart(
  requests: readonly Collected['requests'][number][],
  input: IncidentsInput,
): IncidentsView['layers'] {
  if (!input.layers)
    return {
      timelines: [],
      note: input.layersNote ?? 'the layers were not read',
      samplingMs: null,
    };
  const failures: LayerFailure[] = [];
  for (const r of requests) {
    if (r.pod === null || r.upstreamIp === null || r.timeMs === null || r.clientName === null)
      continue;
    if (r.state !== 'terminating' && r.state !== 'terminated') continue;
    failures.push({
      time: r.timeMs,
      client: r.clientName,
      ip: r.upstreamIp,
      holder: {
        pod: podKey(r.pod.namespace, r.pod.name),
        deletionStartedAt: r.deletionStartedAt,
        goneAt: r.goneAt,
      },
    });
  }
  return {
    timelines: layerTimelines({ ...input.layers, failures }).slice(0, MAX_LAYER_ROWS),
    note: input.layersNote ?? null,
    samplingMs: input.layers.samplingMs,
  };
}

/** Lag rows listed (longest first). */
const MAX_LAG_ROWS = 200;

function staleFindings(stale: NonNullable<IncidentsView['stale']>): Finding[] {
  const { namespace: ns, name } = parsePodRef(stale.client);
  const byCluster = new Map<string, StaleHost[]>();
  for (const h of stale.hosts) byCluster.set(h.cluster, [...(byCluster.get(h.cluster) ?? []), h]);
  return [...byCluster.entries()].map(([cluster, hosts]) => ({
    code: 'MDX0407',
    severity: 'error' as const,
    subject: { kind: 'Pod', namespace: ns, name },
    evidence: {
      cluster,
      staleHosts: hosts.map((h) => h.address).join(','),
      lastHolders: hosts.map((h) => h.lastHolder ?? '?').join(','),
    },
    fix: {
      why: 'The proxy did not receive or apply the EDS update: check istiod /debug/syncz for this proxy (sent vs acked) and its istio-proxy log for rejected config; outlier detection ejects such hosts meanwhile.',
    },
  }));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
