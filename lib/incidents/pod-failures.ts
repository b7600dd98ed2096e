/**
 * The failing requests that reached one pod (the pod that held the upstream IP when each was
 * sent, as recorded): what a pod's page shows, live or gone.
 */
import type { PodFailures } from '../api/inventory';
import type { PodIdentity } from '../refs/pod-ref';
import type { StoredFailure } from './failure-store';

/** Clients named on the page at most (the rest are counted). */
const MAX_CLIENTS = 20;

export function failuresHitting(
  pod: PodIdentity,
  stored: readonly StoredFailure[],
  window: { fromMs: number; toMs: number },
): Omit<PodFailures, 'hiddenNamespaces'> {
  const byState: Record<string, number> = {};
  const clients = new Set<string>();
  let count = 0;
  let first: number | null = null;
  let last: number | null = null;
  for (const f of stored) {
    const p = f.attribution.pod;
    if (!p) continue;
    // by uid where both have one: a namesake (an earlier pod of the name) is another pod
    const same =
      pod.uid && p.uid ? p.uid === pod.uid : p.namespace === pod.namespace && p.name === pod.name;
    if (!same) continue;
    count++;
    byState[f.attribution.state] = (byState[f.attribution.state] ?? 0) + 1;
    clients.add(f.source.proxy);
    const t = f.fields.time;
    if (t !== null) {
      if (first === null || t < first) first = t;
      if (last === null || t > last) last = t;
    }
  }
  const names = [...clients].sort();
  return {
    count,
    byState,
    firstAt: first === null ? null : new Date(first).toISOString(),
    lastAt: last === null ? null : new Date(last).toISOString(),
    clients: names.slice(0, MAX_CLIENTS),
    clientsTotal: names.length,
    window: {
      from: new Date(window.fromMs).toISOString(),
      to: new Date(window.toMs).toISOString(),
    },
  };
}
