/**
 * Prometheus HTTP API reads: /api/v1/query_range (matrix) and /api/v1/query (vector). Answers are
 * validated (zod); a failure of any kind (HTTP status, non-JSON body, error status) is returned
 * as an error string, never thrown.
 */
import { z } from 'zod';

const ResultSchema = z.object({
  status: z.string(),
  error: z.string().optional(),
  data: z
    .object({
      resultType: z.string(),
      result: z.array(
        z.object({
          metric: z.record(z.string(), z.string()),
          values: z.array(z.tuple([z.number(), z.string()])).optional(),
          value: z.tuple([z.number(), z.string()]).optional(),
        }),
      ),
    })
    .optional(),
});

export interface Series {
  metric: Record<string, string>;
  /** [epoch ms, value] */
  samples: [number, number][];
}

export interface SeriesAnswer {
  series: Series[];
  error: string | null;
}

const sample = ([t, v]: [number, string]): [number, number] => [Math.round(t * 1000), Number(v)];

/**
 * A /api/v1/query_range answer (matrix) or a /api/v1/query answer (vector: one sample per
 * series) as series, or the error it carries.
 */
export function parseMatrix(body: unknown): SeriesAnswer {
  const parsed = ResultSchema.safeParse(body);
  if (!parsed.success) return { series: [], error: 'Prometheus answer is not a query result' };
  const { status, error, data } = parsed.data;
  if (status !== 'success' || !data)
    return { series: [], error: `Prometheus query failed: ${error ?? status}` };
  if (data.resultType !== 'matrix' && data.resultType !== 'vector')
    return { series: [], error: `Prometheus answered a ${data.resultType}, not series` };
  return {
    series: data.result.map((r) => ({
      metric: r.metric,
      samples: r.values ? r.values.map(sample) : r.value ? [sample(r.value)] : [],
    })),
    error: null,
  };
}

export interface PromClient {
  baseUrl: string;
  timeoutMs: number;
  fetchImpl: typeof fetch;
}

/** GET api/v1/<path> below the base URL (which may carry a path prefix), parsed as series. */
export async function promGet(
  c: PromClient,
  path: 'query' | 'query_range',
  params: Record<string, string>,
): Promise<SeriesAnswer> {
  const url = new URL(`api/v1/${path}`, c.baseUrl.endsWith('/') ? c.baseUrl : `${c.baseUrl}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  let res: Response;
  try {
    res = await c.fetchImpl(url, { signal: AbortSignal.timeout(c.timeoutMs) });
  } catch (e) {
    return {
      series: [],
      error: `Prometheus at ${c.baseUrl} not reachable: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const text = await res.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {
      series: [],
      error: `Prometheus answered HTTP ${res.status} with a non-JSON body: ${text.slice(0, 120)}`,
    };
  }
  return parseMatrix(body);
}
