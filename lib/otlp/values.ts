import type { OtlpAnyValue, OtlpKeyValue } from './types';

/** An AnyValue as a JSON value (kvlists as objects, arrays as arrays, bytes as base64). */
export function anyValueToJson(v: OtlpAnyValue | undefined): unknown {
  if (!v) return null;
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) {
    const n = Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(anyValueToJson);
  if (v.kvlistValue !== undefined) return attributesToObject(v.kvlistValue.values);
  if (v.bytesValue !== undefined) return v.bytesValue;
  return null;
}

/** Attributes as an object; a key given twice keeps its last value, as OTLP leaves it open. */
export function attributesToObject(
  kvs: readonly OtlpKeyValue[] | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of kvs ?? []) if (kv.key) out[kv.key] = anyValueToJson(kv.value);
  return out;
}

/** A scalar attribute as text; null for an absent, empty or structured one. */
export function attributeText(attrs: Record<string, unknown>, key: string): string | null {
  const v = attrs[key];
  if (typeof v === 'string') return v === '' || v === '-' ? null : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

/** fixed64 nanoseconds (decimal string or number) to epoch ms; null for absent or 0. */
export function unixNanoToMs(v: string | number | undefined): number | null {
  if (v === undefined || v === null) return null;
  let ms: number;
  // a number this large is a double: the nearest millisecond is all it holds, and all meshdx keeps
  if (typeof v === 'number') ms = Math.round(v / 1e6);
  else {
    if (!/^\d+$/.test(v)) return null;
    ms = v.length > 6 ? Number(v.slice(0, -6)) : 0;
  }
  return ms > 0 && Number.isFinite(ms) ? ms : null;
}
