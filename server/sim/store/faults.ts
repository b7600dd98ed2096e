import { z } from 'zod';
import type { Pod } from '../../../lib/kube/types';
import type { SimFaults } from './contracts';
import { podKey } from '../../../lib/refs/pod-ref';

/** Fault settings as plain data (what /_sim/faults accepts and what startSimulator takes). */
export interface FaultSettings {
  latencyMs?: number;
  errorRate?: number;
  dropWatchesAfterMs?: number;
  unreachablePods?: Iterable<string>;
  slowPods?: Record<string, number> | Map<string, number>;
  gaugeOverrides?: Record<string, Record<string, string>>;
}

export function createFaults(init: FaultSettings = {}): SimFaults {
  const f: SimFaults = {
    latencyMs: 0,
    errorRate: 0,
    dropWatchesAfterMs: 0,
    unreachablePods: new Set(),
    slowPods: new Map(),
    gaugeOverrides: new Map(),
  };
  applyFaults(f, init);
  return f;
}

/** Apply settings in place: given fields replace the current ones, missing fields stay. */
export function applyFaults(f: SimFaults, s: FaultSettings): void {
  if (s.latencyMs !== undefined) f.latencyMs = Math.max(0, s.latencyMs);
  if (s.errorRate !== undefined) f.errorRate = Math.min(1, Math.max(0, s.errorRate));
  if (s.dropWatchesAfterMs !== undefined) f.dropWatchesAfterMs = Math.max(0, s.dropWatchesAfterMs);
  if (s.unreachablePods !== undefined) {
    f.unreachablePods.clear();
    for (const p of s.unreachablePods) f.unreachablePods.add(p);
  }
  if (s.slowPods !== undefined) {
    f.slowPods.clear();
    const pairs = s.slowPods instanceof Map ? [...s.slowPods] : Object.entries(s.slowPods);
    for (const [k, v] of pairs) f.slowPods.set(k, Math.max(0, v));
  }
  if (s.gaugeOverrides !== undefined) {
    f.gaugeOverrides.clear();
    for (const [k, v] of Object.entries(s.gaugeOverrides)) f.gaugeOverrides.set(k, { ...v });
  }
}

/**
 * A /stats/prometheus answer with the pod's overridden gauges (raw text values) in place of
 * what its Envoy counts; other answers unchanged.
 */
export function withGaugeOverrides(body: string, overrides: Record<string, string>): string {
  return body
    .split('\n')
    .map((line) => {
      const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? \S+$/.exec(line);
      const v = m?.[1] !== undefined ? overrides[m[1]] : undefined;
      return m && v !== undefined ? `${m[1]}${m[2] ?? ''} ${v}` : line;
    })
    .join('\n');
}

/** A pod's key in the unreachablePods and slowPods faults: "namespace/name". */
export const faultKey = (pod: Pod): string =>
  podKey(pod.metadata.namespace ?? '', pod.metadata.name);

const podRef = z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'expected "namespace/name"');

export const faultPatchSchema = z
  .object({
    latencyMs: z.number().finite().min(0),
    errorRate: z.number().min(0).max(1),
    dropWatchesAfterMs: z.number().finite().min(0),
    unreachablePods: z.array(podRef),
    slowPods: z.record(podRef, z.number().finite().min(0)),
    gaugeOverrides: z.record(
      podRef,
      z.record(
        z.string().regex(/^[a-zA-Z_:][a-zA-Z0-9_:]*$/, 'expected a metric name'),
        z.string(),
      ),
    ),
  })
  .partial()
  .strict();

/** Validate an untrusted patch (JSON body of POST /_sim/faults); returns the errors it found. */
export function parseFaultPatch(
  body: unknown,
): { ok: true; patch: FaultSettings } | { ok: false; errors: string[] } {
  const r = faultPatchSchema.safeParse(body);
  if (r.success) return { ok: true, patch: r.data };
  return {
    ok: false,
    errors: r.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`),
  };
}

/** Faults as plain JSON (for /_sim/info). */
export function faultsJson(f: SimFaults): Required<
  Omit<FaultSettings, 'slowPods' | 'unreachablePods' | 'gaugeOverrides'>
> & {
  unreachablePods: string[];
  slowPods: Record<string, number>;
  gaugeOverrides: Record<string, Record<string, string>>;
} {
  return {
    latencyMs: f.latencyMs,
    errorRate: f.errorRate,
    dropWatchesAfterMs: f.dropWatchesAfterMs,
    unreachablePods: [...f.unreachablePods].sort(),
    slowPods: Object.fromEntries([...f.slowPods].sort()),
    gaugeOverrides: Object.fromEntries([...f.gaugeOverrides].sort()),
  };
}

function num(key: string, v: string): number {
  const n = Number(v);
  if (v === '' || !Number.isFinite(n) || n < 0)
    throw new Error(`--fault ${key} wants a number >= 0, got "${v}"`);
  return n;
}

/** `--fault key=value` command-line items into fault settings; throws on a bad item. */
export function parseFaultArgs(list: string[] | undefined): FaultSettings {
  const out: FaultSettings = {};
  const unreachable: string[] = [];
  const slow: Record<string, number> = {};
  for (const item of list ?? []) {
    const i = item.indexOf('=');
    if (i <= 0) throw new Error(`--fault wants key=value, got "${item}"`);
    const k = item.slice(0, i);
    const v = item.slice(i + 1);
    if (k === 'latency' || k === 'latencyMs') out.latencyMs = num(k, v);
    else if (k === 'errorRate' || k === 'errors') out.errorRate = Math.min(1, num(k, v));
    else if (k === 'dropWatches' || k === 'dropWatchesAfterMs') out.dropWatchesAfterMs = num(k, v);
    else if (k === 'unreachable') unreachable.push(v);
    else if (k === 'slow') {
      const m = /^([^/]+\/[^:]+):(\d+)$/.exec(v);
      if (m === null) throw new Error(`--fault slow wants NS/POD:MS, got "${v}"`);
      slow[m[1] ?? ''] = Number(m[2]);
    } else throw new Error(`unknown fault "${k}"`);
  }
  if (unreachable.length > 0) out.unreachablePods = unreachable;
  if (Object.keys(slow).length > 0) out.slowPods = slow;
  return out;
}
