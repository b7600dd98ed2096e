/**
 * Prometheus HTTP API answers (/api/v1/query_range matrix, /api/v1/query vector) read as series:
 * validated by hand, a malformed answer is an error string naming it, never thrown.
 */
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

type Sample = [number, number];

/** Checked key by key: no array of values per series (an answer holds tens of thousands). */
export function isRecordOfStrings(v: unknown): v is Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const k in v) if (typeof (v as Record<string, unknown>)[k] !== 'string') return false;
  return true;
}

/** `[<unix seconds>, "<value>"]`, or null when it is not one. */
function readSample(v: unknown): Sample | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const [t, x] = v as unknown[];
  return typeof t === 'number' && typeof x === 'string' ? sample([t, x]) : null;
}

/**
 * A /api/v1/query_range answer (matrix) or a /api/v1/query answer (vector: one sample per
 * series) as series, or the error it carries. Checked by hand rather than with a schema: an
 * answer for a fleet holds tens of thousands of series, and this runs on every view.
 */
export function parseMatrix(body: unknown): SeriesAnswer {
  const notResult = { series: [], error: 'Prometheus answer is not a query result' };
  if (typeof body !== 'object' || body === null) return notResult;
  const { status, error, data } = body as { status?: unknown; error?: unknown; data?: unknown };
  if (typeof status !== 'string' || (error !== undefined && typeof error !== 'string'))
    return notResult;
  if (data !== undefined && (typeof data !== 'object' || data === null)) return notResult;
  const d = data as { resultType?: unknown; result?: unknown } | undefined;
  if (d !== undefined && (typeof d.resultType !== 'string' || !Array.isArray(d.result)))
    return notResult;
  if (status !== 'success' || !d)
    return {
      series: [],
      error: `Prometheus query failed: ${(error as string | undefined) ?? status}`,
    };
  if (d.resultType !== 'matrix' && d.resultType !== 'vector')
    return { series: [], error: `Prometheus answered a ${String(d.resultType)}, not series` };
  const series: Series[] = [];
  for (const r of d.result as unknown[]) {
    if (typeof r !== 'object' || r === null) return notResult;
    const { metric, values, value } = r as { metric?: unknown; values?: unknown; value?: unknown };
    if (!isRecordOfStrings(metric)) return notResult;
    let samples: Sample[] = [];
    if (values !== undefined) {
      if (!Array.isArray(values)) return notResult;
      for (const v of values as unknown[]) {
        const s = readSample(v);
        if (s === null) return notResult;
        samples.push(s);
      }
    } else if (value !== undefined) {
      const s = readSample(value);
      if (s === null) return notResult;
      samples = [s];
    }
    series.push({ metric, samples });
  }
  return { series, error: null };
}
