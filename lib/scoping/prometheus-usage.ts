/**
 * Prometheus `istio_requests_total` (reporter="source") per client workload and destination
 * service, over the observation window: the query and the reading of its answer.
 */
import type { TrafficObservation } from './types';
import { parseMatrix, type Series } from '../metrics/prom-matrix';
import { workloadNameKey } from '../refs/workload-ref';
import { check, REQUESTS, type Implausible } from '../plausible/checks';

/** At most this many implausible samples are kept as examples (all are counted). */
const MAX_IMPLAUSIBLE_KEPT = 5;

/**
 * Requests each client workload's proxies counted per destination service, as last seen within
 * the window: the counters count from each proxy's start, and the window starts when the proxies
 * did, so this is what their own Envoy /stats counters say (not only the growth Prometheus saw
 * while it scraped, which a quiet hour or a fresh Prometheus would make 0).
 */
export function requestsQuery(windowSeconds: number): string {
  const w = Math.max(60, Math.round(windowSeconds));
  return `sum by (source_workload, source_workload_namespace, destination_service) (max_over_time(istio_requests_total{reporter="source"}[${w}s]))`;
}

export interface PrometheusUsage {
  observations: TrafficObservation[];
  /**
   * Samples without a workload, namespace or destination, or with a value a request count cannot
   * have (not a number, negative, fractional, beyond any counter): left out, counted here.
   */
  badSamples: number;
  /** The first few of those whose value could not be, with what was read. */
  implausible: Implausible[];
  error: string | null;
}

/** Turns a Prometheus /api/v1/query answer into one observation per client workload. */
export function usageFromPrometheus(body: unknown): PrometheusUsage {
  const answer = parseMatrix(body);
  if (answer.error)
    return { observations: [], badSamples: 0, implausible: [], error: answer.error };
  return usageFromSeries(answer.series);
}

export function usageFromSeries(series: readonly Series[]): PrometheusUsage {
  const byWorkload = new Map<string, TrafficObservation>();
  let badSamples = 0;
  const implausible: Implausible[] = [];
  for (const s of series) {
    const ns = s.metric.source_workload_namespace;
    const wl = s.metric.source_workload;
    const host = s.metric.destination_service;
    const read = s.samples[0]?.[1] ?? Number.NaN;
    const c = check('istio_requests_total', read, REQUESTS);
    if (!ns || !wl || !host || !c.ok) {
      badSamples++;
      if (!c.ok && implausible.length < MAX_IMPLAUSIBLE_KEPT)
        implausible.push({
          ...c.implausible,
          figure: `istio_requests_total{source_workload="${wl ?? ''}",destination_service="${host ?? ''}"}`,
        });
      continue;
    }
    const count = c.value;
    const key = workloadNameKey(ns, wl);
    const o = byWorkload.get(key) ?? {
      source: 'prometheus' as const,
      namespace: ns,
      workload: wl,
      available: true,
      hits: [],
    };
    if (count > 0) o.hits.push({ host, count: Math.round(count) });
    byWorkload.set(key, o);
  }
  return { observations: [...byWorkload.values()], badSamples, implausible, error: null };
}
