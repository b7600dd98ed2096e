/**
 * The proxy fleet's figures from Prometheus (or Thanos, Mimir, VictoriaMetrics: the same
 * /api/v1/query): a few instant queries over the series Istio's standard scrape already keeps
 * for every sidecar and gateway, labelled by `namespace` and `pod`, instead of one pods/proxy
 * request per proxy. A series that is missing, or whose last sample is older than `maxAgeMs`,
 * makes that figure unknown (never 0).
 */
import type { EnvoyProxyStats } from '../../lib/metrics/envoy-stats';
import type { ScrapeOutcome } from '../../lib/proxies/types';
import { AsciiTexts } from '../../lib/ascii-text';
import { promVector, type PromClient, type Series } from './query';

/** One instant query per figure; `max by` folds duplicates (two scrapes, HA replicas). */
export const FLEET_QUERIES = {
  activeClusters: 'max by (namespace, pod) (envoy_cluster_manager_active_clusters)',
  warmingClusters: 'max by (namespace, pod) (envoy_cluster_manager_warming_clusters)',
  listeners: 'max by (namespace, pod) (envoy_listener_manager_total_listeners_active)',
  memory: 'max by (namespace, pod) (envoy_server_memory_allocated)',
  state: 'max by (namespace, pod) (envoy_server_state)',
  version: 'max by (namespace, pod, tag) (istio_build{component="proxy"})',
  /** When the active-clusters sample was scraped: its age decides lagging. */
  sampledAt: 'max by (namespace, pod) (timestamp(envoy_cluster_manager_active_clusters))',
} as const;

type Figure = keyof typeof FLEET_QUERIES;

/** The labels the answers are read for: the proxy's, and the version's tag. */
const LABELS = ['namespace', 'pod', 'tag'] as const;

/** Envoy ServerInfo.State names by gauge value. */
const STATE_NAMES = ['LIVE', 'DRAINING', 'PRE_INITIALIZING', 'INITIALIZING'];

export interface PromFleetSample {
  stats: EnvoyProxyStats;
  /** Scrape time of the active-clusters sample (epoch ms), null when unknown. */
  sampledAtMs: number | null;
}

export interface PromFleet {
  /** Keyed `namespace/pod`. */
  byPod: Map<string, PromFleetSample>;
  /** Series without a namespace or pod label (not attributable to a proxy). */
  unlabelled: number;
  error: string | null;
  queries: string[];
}

/**
 * Why a fleet read cannot give the proxies' figures (its error, or no fleet series at all), or
 * null when it can.
 */
export function promFleetProblem(p: PromFleet, url: string): string | null {
  if (p.error) return p.error;
  if (p.byPod.size === 0)
    return `Prometheus at ${url} has no envoy_cluster_manager_active_clusters series with namespace and pod labels (is Istio's sidecar scrape configured?)`;
  return null;
}

const keyOf = (m: Record<string, string>) =>
  m.namespace && m.pod ? `${m.namespace}/${m.pod}` : null;

function emptyStats(): EnvoyProxyStats {
  return {
    activeClusters: null,
    warmingClusters: null,
    listenersActive: null,
    memoryAllocatedBytes: null,
    serverState: null,
    initializationTimeMs: null,
    istioVersion: null,
  };
}

/**
 * Where the samples are kept while answers are folded: the fleet's `namespace/pod` map, and the
 * same samples by namespace then pod, so the 7 answers' 140,000 series at 20,000 proxies find
 * their proxy without building a `namespace/pod` string each (one per proxy is built).
 */
interface FoldTarget {
  byPod: Map<string, PromFleetSample>;
  byNamespace: Map<string, Map<string, PromFleetSample>>;
}

function sampleFor(into: FoldTarget, namespace: string, pod: string): PromFleetSample {
  let pods = into.byNamespace.get(namespace);
  if (!pods) {
    pods = new Map();
    into.byNamespace.set(namespace, pods);
  }
  let p = pods.get(pod);
  if (!p) {
    p = { stats: emptyStats(), sampledAtMs: null };
    pods.set(pod, p);
    into.byPod.set(`${namespace}/${pod}`, p);
  }
  return p;
}

/**
 * Folds one figure's sample for one series into the per-proxy samples; returns false when the
 * series has no namespace or pod label (not attributable to a proxy).
 */
function foldSample(
  into: FoldTarget,
  figure: Figure,
  namespace: string | undefined,
  pod: string | undefined,
  tag: string | undefined,
  v: number,
): boolean {
  if (!namespace || !pod) return false;
  if (!Number.isFinite(v)) return true;
  const p = sampleFor(into, namespace, pod);
  switch (figure) {
    case 'activeClusters':
      p.stats.activeClusters = v;
      break;
    case 'warmingClusters':
      p.stats.warmingClusters = v;
      break;
    case 'listeners':
      p.stats.listenersActive = v;
      break;
    case 'memory':
      p.stats.memoryAllocatedBytes = v;
      break;
    case 'state':
      p.stats.serverState = { value: v, name: STATE_NAMES[v] ?? `state ${v}` };
      break;
    case 'version':
      if (v > 0 && tag) p.stats.istioVersion = tag;
      break;
    case 'sampledAt':
      p.sampledAtMs = Math.round(v * 1000);
      break;
  }
  return true;
}

/** Merges the answers of FLEET_QUERIES into one sample per proxy. */
export function mergeFleetSeries(
  answers: Record<Figure, Series[]>,
): Omit<PromFleet, 'error' | 'queries'> {
  const into: FoldTarget = { byPod: new Map(), byNamespace: new Map() };
  let unlabelled = 0;
  for (const [figure, series] of Object.entries(answers) as [Figure, Series[]][]) {
    for (const s of series) {
      const v = s.samples[0]?.[1];
      // a series without a sample, or without namespace/pod labels, is counted once (on the
      // active-clusters answer) as not attributable
      const attributable =
        v === undefined
          ? keyOf(s.metric) !== null
          : foldSample(into, figure, s.metric.namespace, s.metric.pod, s.metric.tag, v);
      if (!attributable && figure === 'activeClusters') unlabelled++;
    }
  }
  return { byPod: into.byPod, unlabelled };
}

/**
 * Asks the queries in parallel and folds each answer into the per-proxy samples as it is read
 * (no intermediate series), so at 20,000 proxies one parsed answer (not seven) is alive at a time. Any failure makes the
 * whole answer an error (never partial).
 */
export async function readPromFleet(c: PromClient): Promise<PromFleet> {
  const figures = Object.keys(FLEET_QUERIES) as Figure[];
  const queries = figures.map((f) => FLEET_QUERIES[f]);
  const byPod = new Map<string, PromFleetSample>();
  const into: FoldTarget = { byPod, byNamespace: new Map() };
  let unlabelled = 0;
  let error: string | null = null;
  // each pod's name is in all 7 answers: made once, and hashed once for the maps below
  const texts = new AsciiTexts();
  await Promise.all(
    figures.map(async (figure) => {
      // each answer is folded in as it is read (no Series built): the samples of an answer
      // that turns out bad are dropped with the whole fleet below
      const failed = await promVector(
        c,
        FLEET_QUERIES[figure],
        LABELS,
        ([ns, pod, tag], _at, v) => {
          if (error !== null) return;
          if (!foldSample(into, figure, ns, pod, tag, v) && figure === 'activeClusters')
            unlabelled++;
        },
        texts,
      );
      if (failed !== null && error === null) error = failed;
    }),
  );
  if (error !== null) return { byPod: new Map(), unlabelled: 0, error, queries };
  return { byPod, unlabelled, error: null, queries };
}

/**
 * A proxy's outcome from the Prometheus answer: its figures when its series is there and fresh
 * enough, else unknown with the reason (no series; last sample too old).
 */
export function promOutcome(
  fleet: PromFleet,
  namespace: string,
  pod: string,
  nowMs: number,
  maxAgeMs: number,
): ScrapeOutcome {
  const s = fleet.byPod.get(`${namespace}/${pod}`);
  if (!s || s.stats.activeClusters === null) {
    return {
      ok: false,
      status: 'unknown',
      reason: 'no envoy_cluster_manager_active_clusters series in Prometheus for this pod',
    };
  }
  if (s.sampledAtMs !== null && nowMs - s.sampledAtMs > maxAgeMs) {
    return {
      ok: false,
      status: 'unknown',
      reason: `Prometheus's last sample is ${Math.round((nowMs - s.sampledAtMs) / 1000)} s old (lagging scrape)`,
    };
  }
  return {
    ok: true,
    stats: s.stats,
    errors: 0,
    source: 'prometheus',
    sampledAt: s.sampledAtMs !== null ? isoOf(s.sampledAtMs) : null,
  };
}

/** The last epoch ms turned into ISO text: one scrape stamps thousands of proxies alike. */
let lastIso: { ms: number; iso: string } | null = null;

function isoOf(ms: number): string {
  if (lastIso?.ms !== ms) lastIso = { ms, iso: new Date(ms).toISOString() };
  return lastIso.iso;
}
