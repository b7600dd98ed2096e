/**
 * Optional third source: Prometheus `istio_requests_total` (reporter="source"), per client
 * workload and destination service, over the observation window. Only used when
 * MESHDX_PROMETHEUS is set. Answers are validated (zod); bad samples are counted.
 */
import { promGet } from '../../prometheus/query';
import {
  requestsQuery,
  usageFromSeries,
  type PrometheusUsage,
} from '../../../lib/scoping/prometheus-usage';

/** Runs the query. Never throws: an unreachable Prometheus is an error string. */
export async function readPrometheusUsage(
  baseUrl: string,
  windowSeconds: number,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
): Promise<PrometheusUsage> {
  const answer = await promGet({ baseUrl, timeoutMs, fetchImpl }, 'query', {
    query: requestsQuery(windowSeconds),
  });
  if (answer.error)
    return { observations: [], badSamples: 0, implausible: [], error: answer.error };
  return usageFromSeries(answer.series);
}
