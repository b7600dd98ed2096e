/**
 * Optional third source: Prometheus `istio_requests_total` (reporter="source"), per client
 * workload and destination service, over the observation window. Only used when
 * MESHDX_PROMETHEUS is set. Answers are validated (zod); bad samples are counted.
 */
import { z } from 'zod';
import type { TrafficObservation } from '../../lib/scoping/types';

const VectorSchema = z.object({
  status: z.string(),
  error: z.string().optional(),
  data: z
    .object({
      resultType: z.string(),
      result: z.array(
        z.object({
          metric: z.record(z.string(), z.string()),
          value: z.tuple([z.number(), z.string()]),
        }),
      ),
    })
    .optional(),
});

export function requestsQuery(windowSeconds: number): string {
  const w = Math.max(60, Math.round(windowSeconds));
  return `sum by (source_workload, source_workload_namespace, destination_service) (increase(istio_requests_total{reporter="source"}[${w}s]))`;
}

export interface PrometheusUsage {
  observations: TrafficObservation[];
  /** Samples without a workload, namespace or destination, or with a non-numeric value. */
  badSamples: number;
  error: string | null;
}

/** Turns a Prometheus /api/v1/query answer into one observation per client workload. */
export function usageFromPrometheus(body: unknown): PrometheusUsage {
  const parsed = VectorSchema.safeParse(body);
  if (!parsed.success)
    return { observations: [], badSamples: 0, error: 'Prometheus answer is not a query result' };
  if (parsed.data.status !== 'success' || !parsed.data.data)
    return {
      observations: [],
      badSamples: 0,
      error: `Prometheus query failed: ${parsed.data.error ?? parsed.data.status}`,
    };
  const byWorkload = new Map<string, TrafficObservation>();
  let badSamples = 0;
  for (const s of parsed.data.data.result) {
    const ns = s.metric.source_workload_namespace;
    const wl = s.metric.source_workload;
    const host = s.metric.destination_service;
    const count = Number(s.value[1]);
    if (!ns || !wl || !host || !Number.isFinite(count)) {
      badSamples++;
      continue;
    }
    const key = `${ns}/${wl}`;
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
  return { observations: [...byWorkload.values()], badSamples, error: null };
}

/** Runs the query. Never throws: an unreachable Prometheus is an error string. */
export async function readPrometheusUsage(
  baseUrl: string,
  windowSeconds: number,
  timeoutMs: number,
): Promise<PrometheusUsage> {
  try {
    const url = new URL('api/v1/query', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    url.searchParams.set('query', requestsQuery(windowSeconds));
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body: unknown = await res.json().catch(() => null);
    const out = usageFromPrometheus(body);
    if (!res.ok && !out.error) out.error = `Prometheus answered HTTP ${res.status}`;
    return out;
  } catch (e) {
    return {
      observations: [],
      badSamples: 0,
      error: `Prometheus at ${baseUrl} not reachable: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}
