/**
 * The proxy fleet's figures from Prometheus (or Thanos, Mimir, VictoriaMetrics: the same
 * /api/v1/query): a few instant queries over the series Istio's standard scrape already keeps
 * for every sidecar and gateway, labelled by `namespace` and `pod`, instead of one pods/proxy
 * request per proxy. A series that is missing, or whose last sample is older than `maxAgeMs`,
 * makes that figure unknown (never 0).
 */
import { checkEnvoyProxyStats, type EnvoyProxyStats } from '../../lib/metrics/envoy-stats';
import type { ScrapeOutcome } from '../../lib/proxies/types';
import type { PromFleet, PromFleetSample } from '../../lib/proxies/prom-fleet';
import { AsciiTexts } from '../../lib/ascii-text';
import { promVector, type PromClient, type VectorVisitor } from './query';
import { podKey } from '../../lib/refs/pod-ref';

/**
 * The figures every proxy has its own value of: one series per proxy in each answer. `max by`
 * folds duplicates (two scrapes, HA replicas).
 */
export const FLEET_QUERIES = {
  activeClusters: 'max by (namespace, pod) (envoy_cluster_manager_active_clusters)',
  listeners: 'max by (namespace, pod) (envoy_listener_manager_total_listeners_active)',
  memory: 'max by (namespace, pod) (envoy_server_memory_allocated)',
  /** When the active-clusters sample was scraped: its age decides lagging. */
  sampledAt: 'max by (namespace, pod) (timestamp(envoy_cluster_manager_active_clusters))',
} as const;

/**
 * Figures nearly every proxy has at one usual value (no cluster warming, LIVE): Prometheus is
 * asked for the exceptions only, which spares it and meshdx a 2 MB answer each at 20,000
 * proxies. A proxy left out has the usual value only when the series are as many as the
 * active-clusters series (COVERAGE: each proxy exposes both from one scrape, so duplicate
 * scrapes count alike); else the whole figure is asked for (`full`), and a proxy without the
 * series stays unknown. Exceptions and counts select raw series: no grouping by proxy, which
 * costs Prometheus as much as encoding the answer would.
 */
const SPARSE = {
  warmingClusters: {
    exceptions: 'envoy_cluster_manager_warming_clusters != 0',
    full: 'max by (namespace, pod) (envoy_cluster_manager_warming_clusters)',
    series: 'envoy_cluster_manager_warming_clusters',
    usual: 0,
  },
  state: {
    exceptions: 'envoy_server_state != 0',
    full: 'max by (namespace, pod) (envoy_server_state)',
    series: 'envoy_server_state',
    /** LIVE */
    usual: 0,
  },
} as const;

/** A PromQL string literal. */
const promString = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

const PROXY_BUILD = 'istio_build{component="proxy"}';

/** How many proxies' series carry each Istio version; those off the usual one are asked for. */
const VERSIONS_QUERY = `count by (tag) (${PROXY_BUILD})`;
const FULL_VERSION_QUERY = `max by (namespace, pod, tag) (${PROXY_BUILD})`;
const minorityQuery = (usual: string) => `istio_build{component="proxy",tag!=${promString(usual)}}`;

/** How many series each figure has, labelled `figure`, from one evaluation. */
const COVERAGE_QUERY = (
  [
    ['activeClusters', 'envoy_cluster_manager_active_clusters'],
    ['warmingClusters', SPARSE.warmingClusters.series],
    ['state', SPARSE.state.series],
    ['version', PROXY_BUILD],
  ] as const
)
  .map(([figure, series]) => `label_replace(count(${series}), "figure", "${figure}", "", "")`)
  .join(' or ');

type Figure = keyof typeof FLEET_QUERIES | keyof typeof SPARSE | 'version';

/** The series each figure is read from, as an implausible value names it. */
const FIGURE_SERIES: Record<Figure, string> = {
  activeClusters: 'envoy_cluster_manager_active_clusters',
  listeners: 'envoy_listener_manager_total_listeners_active',
  memory: 'envoy_server_memory_allocated',
  sampledAt: 'timestamp(envoy_cluster_manager_active_clusters)',
  warmingClusters: 'envoy_cluster_manager_warming_clusters',
  state: 'envoy_server_state',
  version: 'istio_build',
};

/** The labels the answers are read for: the proxy's, and the version's tag. */
const LABELS = ['namespace', 'pod', 'tag'] as const;

/** Envoy ServerInfo.State names by gauge value. */
const STATE_NAMES = ['LIVE', 'DRAINING', 'PRE_INITIALIZING', 'INITIALIZING'];

/** Prometheus's own time, asked first when no instant is given. */
const CLOCK_QUERY = 'vector(time())';

function emptyStats(): EnvoyProxyStats {
  return {
    activeClusters: null,
    warmingClusters: null,
    listenersActive: null,
    memoryAllocatedBytes: null,
    serverState: null,
    initializationTimeMs: null,
    istioVersion: null,
    implausible: [],
  };
}

/**
 * Where the samples are kept while answers are folded: the fleet's `namespace/pod` map, and the
 * same samples by namespace then pod, so the 4 per-proxy answers' 80,000 series at 20,000
 * proxies find their proxy without building a `namespace/pod` string each (one per proxy is
 * built).
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
    p = { stats: emptyStats(), sampledAtMs: null, sampledAt: null };
    pods.set(pod, p);
    into.byPod.set(podKey(namespace, pod), p);
  }
  return p;
}

/**
 * Folds one figure's sample for one series into the per-proxy samples: the proxy's sample, or
 * null when the series has no namespace or pod label (not attributable to a proxy). A value
 * that is not finite leaves the figure unknown, noted with its raw value; promOutcome checks the
 * finite ones (a negative or impossibly large one is unknown too, with its raw value).
 */
function foldSample(
  into: FoldTarget,
  figure: Figure,
  namespace: string | undefined,
  pod: string | undefined,
  tag: string | undefined,
  v: number,
): PromFleetSample | null {
  if (!namespace || !pod) return null;
  const p = sampleFor(into, namespace, pod);
  if (!Number.isFinite(v)) {
    p.stats.implausible.push({
      figure: FIGURE_SERIES[figure],
      raw: String(v),
      reason: 'a figure is a finite number',
    });
    return p;
  }
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
      p.stats.serverState = stateOf(v);
      break;
    case 'version':
      if (v > 0 && tag) p.stats.istioVersion = tag;
      break;
    case 'sampledAt':
      p.sampledAtMs = Math.round(v * 1000);
      break;
  }
  return p;
}

const stateOf = (v: number) => ({ value: v, name: STATE_NAMES[v] ?? `state ${v}` });

/**
 * The most common version (ties: the lowest tag), when there are as many version series as
 * active-clusters series (each proxy reports exactly one version).
 */
function usualVersion(
  versions: { tag: string; proxies: number }[],
  proxies: number,
  withBuild: number | undefined,
): string | null {
  const counted = versions.reduce((n, v) => n + v.proxies, 0);
  if (versions.length === 0 || withBuild !== proxies || counted !== proxies) return null;
  return versions.reduce((a, b) =>
    b.proxies > a.proxies || (b.proxies === a.proxies && b.tag < a.tag) ? b : a,
  ).tag;
}

/**
 * The instant to evaluate the fleet at: Prometheus's time (one small query), or the error that
 * stopped it.
 */
async function prometheusTime(c: PromClient): Promise<number | string> {
  let atMs = NaN;
  const failed = await promVector(c, CLOCK_QUERY, [], (_l, t) => {
    atMs = t;
  });
  if (failed !== null) return failed;
  return Number.isFinite(atMs) ? atMs : `Prometheus answered ${CLOCK_QUERY} without a time`;
}

/**
 * Asks the queries in parallel, all evaluated at one instant (`atMs`, else Prometheus's own
 * time, asked first), and folds each answer into the per-proxy samples as it is read (no
 * intermediate series), so at 20,000 proxies one parsed answer (not four) is alive at a time.
 * A second round asks for a sparse figure whose series some proxies lack, and for the proxies
 * off the usual version. Any failure makes the whole answer an error (never partial).
 */
export async function readPromFleet(c: PromClient, atMs?: number): Promise<PromFleet> {
  const byPod = new Map<string, PromFleetSample>();
  const into: FoldTarget = { byPod, byNamespace: new Map() };
  const queries: string[] = [];
  const failedFleet = (error: string, t = NaN): PromFleet => ({
    byPod: new Map(),
    unlabelled: 0,
    error,
    queries,
    atMs: t,
  });
  if (atMs === undefined) queries.push(CLOCK_QUERY);
  const when = atMs ?? (await prometheusTime(c));
  if (typeof when === 'string') return failedFleet(when);
  const at = { time: (when / 1000).toFixed(3) };
  let unlabelled = 0;
  let error: string | null = null;
  // each pod's name is in most answers: made once, and hashed once for the maps below
  const texts = new AsciiTexts();
  const ask = async (query: string, labels: readonly string[], visit: VectorVisitor) => {
    queries.push(query);
    // an answer is folded in as it is read: the samples of one that turns out bad are dropped
    // with the whole fleet below
    const failed = await promVector(
      c,
      query,
      labels,
      (l, t, v) => {
        if (error === null) visit(l, t, v);
      },
      texts,
      at,
    );
    if (failed !== null && error === null) error = failed;
  };
  /** The proxies a sparse figure's answers named: the usual value is not theirs. */
  const named = {
    warmingClusters: new Set<PromFleetSample>(),
    state: new Set<PromFleetSample>(),
    version: new Set<PromFleetSample>(),
  };
  const fold =
    (figure: Figure): VectorVisitor =>
    ([ns, pod, tag], _t, v) => {
      const p = foldSample(into, figure, ns, pod, tag, v);
      if (p === null) {
        if (figure === 'activeClusters') unlabelled++;
      } else if (figure === 'warmingClusters' || figure === 'state' || figure === 'version') {
        named[figure].add(p);
      }
    };
  const coverage = new Map<string, number>();
  const versions: { tag: string; proxies: number }[] = [];
  await Promise.all([
    ...(Object.keys(FLEET_QUERIES) as (keyof typeof FLEET_QUERIES)[]).map((f) =>
      ask(FLEET_QUERIES[f], LABELS, fold(f)),
    ),
    ...(Object.keys(SPARSE) as (keyof typeof SPARSE)[]).map((f) =>
      ask(SPARSE[f].exceptions, LABELS, fold(f)),
    ),
    ask(VERSIONS_QUERY, ['tag'], ([tag], _t, n) => {
      if (tag !== undefined) versions.push({ tag, proxies: n });
    }),
    ask(COVERAGE_QUERY, ['figure'], ([figure], _t, n) => {
      if (figure !== undefined) coverage.set(figure, n);
    }),
  ]);
  if (error !== null) return failedFleet(error, when);

  const proxies = coverage.get('activeClusters') ?? 0;
  const usual = (Object.keys(SPARSE) as (keyof typeof SPARSE)[]).filter(
    (f) => coverage.get(f) === proxies,
  );
  const version = usualVersion(versions, proxies, coverage.get('version'));
  await Promise.all([
    ...(Object.keys(SPARSE) as (keyof typeof SPARSE)[])
      .filter((f) => !usual.includes(f))
      .map((f) => ask(SPARSE[f].full, LABELS, fold(f))),
    version === null
      ? ask(FULL_VERSION_QUERY, LABELS, fold('version'))
      : versions.length > 1
        ? ask(minorityQuery(version), LABELS, fold('version'))
        : null,
  ]);
  if (error !== null) return failedFleet(error, when);

  // a proxy no exception named has the usual value: only a proxy with figures of its own
  const usualWarming = usual.includes('warmingClusters');
  const usualState = usual.includes('state');
  // one scrape stamps thousands of proxies alike: each distinct time is written out once
  let last = { ms: NaN, iso: '' };
  for (const p of byPod.values()) {
    if (p.sampledAtMs !== null) {
      if (last.ms !== p.sampledAtMs)
        last = { ms: p.sampledAtMs, iso: new Date(p.sampledAtMs).toISOString() };
      p.sampledAt = last.iso;
    }
    if (p.stats.activeClusters === null) continue;
    if (usualWarming && !named.warmingClusters.has(p))
      p.stats.warmingClusters = SPARSE.warmingClusters.usual;
    if (usualState && !named.state.has(p)) p.stats.serverState = stateOf(SPARSE.state.usual);
    if (version !== null && !named.version.has(p)) p.stats.istioVersion = version;
  }
  return { byPod, unlabelled, error: null, queries, atMs: when };
}

/**
 * A proxy's outcome from the Prometheus answer: its figures when its series is there and fresh
 * enough, else unknown with the reason (no series; last sample too old). A sample's age is
 * taken at the instant the fleet was evaluated (`fleet.atMs`, Prometheus's clock), never at
 * meshdx's own.
 */
export function promOutcome(
  fleet: PromFleet,
  namespace: string,
  pod: string,
  maxAgeMs: number,
): ScrapeOutcome {
  const nowMs = fleet.atMs;
  const s = fleet.byPod.get(podKey(namespace, pod));
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
    // checked at the door: an impossible figure is unknown here, with its raw value
    stats: checkEnvoyProxyStats(s.stats),
    errors: 0,
    source: 'prometheus',
    sampledAt: s.sampledAt,
  };
}
