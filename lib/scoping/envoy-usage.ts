/**
 * Per-cluster traffic of one proxy from its Envoy admin `/stats` text: which outbound clusters it
 * really used, and how many service clusters it carries. Clusters with zero traffic are not
 * hits. The screen asks the proxy (server/screens/scoping/envoy-usage.ts).
 */
import { parseClusterName } from '../refs/cluster-name';
import { clusterCounterTable, parseEnvoyStatsText } from '../metrics/admin-stats';
import type { TrafficHit, TrafficObservation } from './types';

/** `^cluster\..*\.upstream_(rq|cx)_total$`, dots percent-encoded (the admin helper refuses `..`). */
export const USAGE_STATS_PATH = `/stats?filter=${encodeURIComponent(
  '^cluster\\..*\\.upstream_(rq|cx)_total$',
).replace(/\./g, '%2E')}`;

export interface EnvoyUsage {
  /** Clusters with traffic (requests, else connections), one hit each. */
  hits: TrafficHit[];
  /** Clusters named `DIRECTION|PORT|SUBSET|FQDN` (or the SNI form) in the stats. */
  serviceClusters: number;
  inboundClusters: number;
  /** All clusters the stats name (static and control-plane ones too). */
  clusters: number;
  /** Lines that could not be read (counted, not dropped silently). */
  errors: number;
}

/** Reads a `/stats` text (format `name: value`) into usage. Never throws. */
export function usageFromStatsText(text: string): EnvoyUsage {
  const parsed = parseEnvoyStatsText(text);
  const table = clusterCounterTable(parsed.stats);
  const hits: TrafficHit[] = [];
  let serviceClusters = 0;
  let inboundClusters = 0;
  const names = Object.keys(table);
  for (const name of names) {
    const row = table[name] ?? {};
    const ref = parseClusterName(name);
    if (ref?.direction) serviceClusters++;
    if (ref?.direction === 'inbound') inboundClusters++;
    const rq = row.upstream_rq_total ?? 0;
    const count = rq > 0 ? rq : (row.upstream_cx_total ?? 0);
    if (count > 0) hits.push({ cluster: name, count, ...(ref?.port ? { port: ref.port } : {}) });
  }
  return {
    hits,
    serviceClusters,
    inboundClusters,
    clusters: names.length,
    errors: parsed.counts.errors,
  };
}

/**
 * Istio's default stats matcher keeps per-cluster stats only for control-plane clusters; when no
 * service cluster shows up at all, the proxy does not export them and the source is unavailable
 * (never read as "called nothing").
 */
export const NOT_EXPORTED =
  'per-cluster stats are not exported by this proxy (Istio stats matcher): add the pod annotation sidecar.istio.io/statsInclusionPrefixes: "cluster.outbound" or use access logs';

export interface UsageRead {
  observation: TrafficObservation;
  usage: EnvoyUsage | null;
}

export function usageObservation(namespace: string, pod: string, usage: EnvoyUsage): UsageRead {
  if (usage.serviceClusters === 0) {
    return {
      observation: {
        source: 'envoy-stats',
        namespace,
        pod,
        available: false,
        error: NOT_EXPORTED,
        hits: [],
      },
      usage: null,
    };
  }
  return {
    observation: { source: 'envoy-stats', namespace, pod, available: true, hits: usage.hits },
    usage,
  };
}
