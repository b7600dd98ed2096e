/**
 * Prometheus HTTP API reads: /api/v1/query_range (matrix) and /api/v1/query (vector). Answers are
 * validated; a failure of any kind (HTTP status, non-JSON body, error status) is returned
 * as an error string, never thrown.
 */
import type { AsciiTexts } from '../../lib/ascii-text';
import { scanVector } from '../../lib/metrics/prom-vector';
import { parseFloatStrict } from '../../lib/metrics/value';
import { isRecordOfStrings, parseMatrix, type SeriesAnswer } from '../../lib/metrics/prom-matrix';

export interface PromClient {
  baseUrl: string;
  timeoutMs: number;
  fetchImpl: typeof fetch;
}

/**
 * Answers are asked for uncompressed: a fleet's answer is megabytes of JSON, and on the cluster
 * network gzip costs Prometheus and meshdx more CPU than the bytes save (measured at 20,000
 * proxies: the 7 fleet queries took 100-400 ms less each view on loopback).
 */
function requestInit(c: PromClient): RequestInit {
  return {
    signal: AbortSignal.timeout(c.timeoutMs),
    headers: { 'accept-encoding': 'identity' },
  };
}

/** An answer as it came: its HTTP status and body bytes; or why none came. */
type Fetched = { status: number; ok: boolean; bytes: Uint8Array } | { error: string };

/** GET api/v1/<path> below the base URL (which may carry a path prefix). */
async function promFetch(
  c: PromClient,
  path: 'query' | 'query_range',
  params: Record<string, string>,
): Promise<Fetched> {
  const url = new URL(`api/v1/${path}`, c.baseUrl.endsWith('/') ? c.baseUrl : `${c.baseUrl}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  try {
    const res = await c.fetchImpl(url, requestInit(c));
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { status: res.status, ok: res.ok, bytes };
  } catch (e) {
    return {
      error: `Prometheus at ${c.baseUrl} not reachable: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

/** An answer's body as JSON, or the error naming a body that is none. */
function promJson(status: number, bytes: Uint8Array): { body: unknown } | { error: string } {
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return {
      error: `Prometheus answered HTTP ${status} with a non-JSON body: ${text.slice(0, 120)}`,
    };
  }
}

/** GET api/v1/<path> below the base URL (which may carry a path prefix), parsed as series. */
export async function promGet(
  c: PromClient,
  path: 'query' | 'query_range',
  params: Record<string, string>,
): Promise<SeriesAnswer> {
  const got = await promFetch(c, path, params);
  if ('error' in got) return { series: [], error: got.error };
  const json = promJson(got.status, got.bytes);
  return 'error' in json ? { series: [], error: json.error } : parseMatrix(json.body);
}

/**
 * One sample of an instant query's answer: the values of the labels asked for (in the order
 * asked, undefined where the series lacks one), epoch ms and value. `labels` is reused for the
 * next sample: read it, do not keep it.
 */
export type VectorVisitor = (
  labels: readonly (string | undefined)[],
  atMs: number,
  value: number,
) => void;

/**
 * GET api/v1/query, each sample handed to `visit` with the labels `labelNames`: the answer is
 * read from its bytes (no text of it, no object per series), so a fleet's answer (one series per
 * proxy) costs little more than its bytes. `texts`, shared by the queries of one read, makes
 * each label value (a pod's name) once for all of them; `params` are the query's others (`time`,
 * to evaluate several queries at one instant). The answer must be a vector; anything else, or a
 * sample that is not one, is the error returned (samples already visited are then to be
 * discarded by the caller).
 */
export async function promVector(
  c: PromClient,
  query: string,
  labelNames: readonly string[],
  visit: VectorVisitor,
  texts?: AsciiTexts,
  params: Record<string, string> = {},
): Promise<string | null> {
  const got = await promFetch(c, 'query', { ...params, query });
  if ('error' in got) return got.error;
  // Prometheus's own compact answer is scanned; anything else is read as JSON below
  const scanned = got.ok ? scanVector(got.bytes, labelNames, texts) : null;
  const row: (string | undefined)[] = labelNames.map(() => undefined);
  if (scanned) {
    for (let i = 0; i < scanned.count; i++) {
      for (let k = 0; k < row.length; k++) row[k] = scanned.columns[k]?.[i];
      visit(row, scanned.atMs[i] ?? NaN, scanned.values[i] ?? NaN);
    }
    return null;
  }
  const json = promJson(got.status, got.bytes);
  if ('error' in json) return json.error;
  const body = json.body;
  const notResult = 'Prometheus answer is not a query result';
  if (typeof body !== 'object' || body === null) return notResult;
  const { status, error, data } = body as { status?: unknown; error?: unknown; data?: unknown };
  if (status !== 'success') {
    return typeof status === 'string'
      ? `Prometheus query failed: ${typeof error === 'string' ? error : status}`
      : notResult;
  }
  const d = data as { resultType?: unknown; result?: unknown } | null | undefined;
  if (typeof d !== 'object' || d === null || !Array.isArray(d.result)) return notResult;
  if (d.resultType !== 'vector')
    return `Prometheus answered a ${String(d.resultType)}, not an instant vector`;
  for (const r of d.result as unknown[]) {
    if (typeof r !== 'object' || r === null) return notResult;
    const { metric, value } = r as { metric?: unknown; value?: unknown };
    if (!isRecordOfStrings(metric) || !Array.isArray(value) || value.length !== 2) return notResult;
    const [t, v] = value as unknown[];
    const sample = typeof v === 'string' ? parseFloatStrict(v) : null;
    if (typeof t !== 'number' || sample === null) return notResult;
    for (let k = 0; k < row.length; k++) {
      const name = labelNames[k] as string;
      row[k] = Object.hasOwn(metric, name) ? metric[name] : undefined;
    }
    visit(row, Math.round(t * 1000), sample);
  }
  return null;
}
