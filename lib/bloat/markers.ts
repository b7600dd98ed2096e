/**
 * When a Sidecar resource came into force, for the bloat chart: its last change (the newest
 * managedFields time, else its creationTimestamp) and the workloads of the namespace it governs
 * (a namespace default governs those no workload Sidecar selects).
 */
import type { Sidecar } from '../kube/types';

export interface SidecarMarker {
  namespace: string;
  name: string;
  /** epoch ms of the change, null when the object carries no time at all. */
  at: number | null;
  /** What the time is: its last managedFields update or its creation. */
  from: 'managedFields' | 'creationTimestamp' | null;
  /** Selector labels; null: the namespace default (or the mesh default in the root namespace). */
  selector: Record<string, string> | null;
}

/** The `time` of each managedFields entry (the API server writes one per manager and update). */
export function managedFieldTimes(metadata: object): number[] {
  const mf = (metadata as { managedFields?: unknown }).managedFields;
  if (!Array.isArray(mf)) return [];
  const out: number[] = [];
  for (const f of mf as unknown[]) {
    const t = typeof f === 'object' && f !== null ? (f as { time?: unknown }).time : undefined;
    const ms = typeof t === 'string' ? Date.parse(t) : NaN;
    if (Number.isFinite(ms)) out.push(ms);
  }
  return out;
}

/** The Sidecar's change time. */
export function sidecarMarker(s: Sidecar): SidecarMarker {
  const times = managedFieldTimes(s.metadata);
  const created = s.metadata.creationTimestamp ? Date.parse(s.metadata.creationTimestamp) : NaN;
  const selector = s.spec?.workloadSelector?.labels ?? null;
  const base = {
    namespace: s.metadata.namespace ?? 'default',
    name: s.metadata.name,
    selector: selector && Object.keys(selector).length > 0 ? { ...selector } : null,
  };
  if (times.length > 0) return { ...base, at: Math.max(...times), from: 'managedFields' };
  if (Number.isFinite(created)) return { ...base, at: created, from: 'creationTimestamp' };
  return { ...base, at: null, from: null };
}

/**
 * Markers for a namespace's chart: its own Sidecars and the root namespace's default, those with a
 * time inside [fromMs, toMs], oldest first.
 */
export function markersFor(
  sidecars: readonly Sidecar[],
  namespace: string,
  rootNamespace: string,
  fromMs: number,
  toMs: number,
): SidecarMarker[] {
  return sidecars
    .map(sidecarMarker)
    .filter(
      (m) =>
        (m.namespace === namespace || (m.namespace === rootNamespace && m.selector === null)) &&
        m.at !== null &&
        m.at >= fromMs &&
        m.at <= toMs,
    )
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
}
