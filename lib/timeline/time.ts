/** Timestamp and duration helpers: pure, no Date.now(). */

/** Two timestamps closer than this are treated as simultaneous (second-resolution clocks, skew). */
export const SKEW_TOLERANCE_MS = 1000;

/** RFC 3339 -> epoch ms; null for missing or unparseable values. */
export function toMs(value: string | null | undefined): number | null {
  if (typeof value !== 'string' || value === '') return null;
  if (!/^\d{4}-\d\d-\d\d[T ]\d\d:\d\d/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

export function toIso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Go / protobuf-JSON duration ("5s", "1m30s", "500ms", "2.5s") or a number of seconds, or a
 * protobuf `{seconds, nanos}` object -> ms. Null when it cannot be read.
 */
export function parseDurationMs(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value * 1000 : null;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const s = Number(o.seconds ?? 0);
    const n = Number(o.nanos ?? 0);
    return Number.isFinite(s) && Number.isFinite(n) ? s * 1000 + n / 1e6 : null;
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * (UNIT_MS[m[2] as string] ?? 0);
    consumed = re.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : null;
}

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

const ORDER = { high: 2, medium: 1, low: 0 } as const;
export function minConfidence<T extends keyof typeof ORDER>(a: T, b: T): T {
  return ORDER[a] <= ORDER[b] ? a : b;
}
