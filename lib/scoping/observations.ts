/**
 * Observed traffic, per workload: every source's hits (Envoy cluster stats, access-log upstream
 * clusters, Prometheus destination services) turned into destinations keyed by host, with the
 * sources that saw each one, and which sources were available for the workload at all.
 * Nothing is dropped silently: hits that name no destination and observations that match no
 * workload are counted.
 */
import { parseClusterName } from '../refs/cluster-name';
import {
  SOURCE_ORDER,
  type ObservationSource,
  type TrafficHit,
  type TrafficObservation,
} from './types';
import type { SidecarWorkload } from './workloads';
import { podKey } from '../refs/pod-ref';
import { workloadNameKey } from '../refs/workload-ref';

/** Non-service clusters that still mean "this workload called out". */
export const OUTBOUND_CATCH_ALL: ReadonlySet<string> = new Set([
  'PassthroughCluster',
  'BlackHoleCluster',
]);

export interface Destination {
  /** FQDN (lowercase) or a catch-all cluster name (PassthroughCluster, BlackHoleCluster). */
  host: string;
  ports: number[];
  /** Hits per source (requests or connections). */
  counts: Partial<Record<ObservationSource, number>>;
}

export interface SourceState {
  source: ObservationSource;
  /** An observation for this workload (or one of its pods) could be read. */
  available: boolean;
  /** Observations received (available or not). */
  observations: number;
  errors: string[];
}

export interface WorkloadTraffic {
  sources: SourceState[];
  destinations: Map<string, Destination>;
}

export interface TrafficIndex {
  byWorkload: Map<string, WorkloadTraffic>;
  /** Observations naming a pod/workload that is not a sidecar workload (gone, gateway, typo). */
  unattributed: number;
  /** Hits skipped: zero counts, inbound or control-plane clusters, `unknown` hosts. */
  ignoredHits: number;
}

export function emptyTraffic(): WorkloadTraffic {
  return {
    sources: SOURCE_ORDER.map((source) => ({
      source,
      available: false,
      observations: 0,
      errors: [],
    })),
    destinations: new Map(),
  };
}

/** The destination a hit names, or null when it names none (inbound, control plane, unknown). */
export function hitDestination(hit: TrafficHit): { host: string; port: number | null } | null {
  if (!(hit.count > 0)) return null;
  if (hit.cluster !== undefined) {
    const ref = parseClusterName(hit.cluster.trim());
    if (!ref) return null;
    if (ref.direction === 'outbound' && ref.fqdn) {
      return { host: ref.fqdn.toLowerCase(), port: ref.port ?? hit.port ?? null };
    }
    if (ref.direction === null && OUTBOUND_CATCH_ALL.has(ref.name)) {
      return { host: ref.name, port: null };
    }
    return null;
  }
  const host = hit.host?.trim().toLowerCase() ?? '';
  if (host === '' || host === 'unknown' || host === '-') return null;
  return { host, port: hit.port ?? null };
}

export function indexTraffic(
  observations: readonly TrafficObservation[],
  workloads: readonly SidecarWorkload[],
): TrafficIndex {
  const podToWorkload = new Map<string, string>();
  const byWorkload = new Map<string, WorkloadTraffic>();
  for (const w of workloads) {
    byWorkload.set(w.key, emptyTraffic());
    for (const p of w.pods) podToWorkload.set(podKey(w.namespace, p.metadata.name), w.key);
  }
  let unattributed = 0;
  let ignoredHits = 0;
  for (const o of observations) {
    const key =
      (o.pod !== undefined ? podToWorkload.get(podKey(o.namespace, o.pod)) : undefined) ??
      (o.workload !== undefined ? workloadNameKey(o.namespace, o.workload) : undefined);
    const traffic = key !== undefined ? byWorkload.get(key) : undefined;
    if (!traffic) {
      unattributed += 1;
      continue;
    }
    const state = traffic.sources.find((s) => s.source === o.source);
    if (!state) {
      unattributed += 1;
      continue;
    }
    state.observations += 1;
    if (o.error) state.errors.push(o.error);
    if (!o.available) continue;
    state.available = true;
    for (const hit of o.hits) {
      const d = hitDestination(hit);
      if (!d) {
        ignoredHits += 1;
        continue;
      }
      const dest = traffic.destinations.get(d.host) ?? { host: d.host, ports: [], counts: {} };
      if (d.port !== null && !dest.ports.includes(d.port)) dest.ports.push(d.port);
      dest.counts[o.source] = (dest.counts[o.source] ?? 0) + hit.count;
      traffic.destinations.set(d.host, dest);
    }
  }
  for (const t of byWorkload.values()) {
    for (const d of t.destinations.values()) d.ports.sort((a, b) => a - b);
  }
  return { byWorkload, unattributed, ignoredHits };
}

/** A workload is observed when at least one source could be read for it. */
export function isObserved(t: WorkloadTraffic | undefined): boolean {
  return t?.sources.some((s) => s.available) ?? false;
}

/** Sources that saw a destination, best first. */
export function sourcesOf(d: Destination): ObservationSource[] {
  return SOURCE_ORDER.filter((s) => (d.counts[s] ?? 0) > 0);
}
