import type { ProxyFleetRow, FleetTotals, NamespaceSummary, WorkloadSummary } from '../api/proxies';
import { sumMeasured } from '../api/measured';
import { sidecarScopes } from '../dataplane/proxy-container';
import { workloadKey } from '../refs/workload-ref';

/**
 * A sidecar no Sidecar resource selects (a gateway's or waypoint's proxy none can scope); one
 * whose Sidecar is unknown (not read) is not counted as unscoped.
 */
const isUnscoped = (r: ProxyFleetRow) =>
  r.sidecar === null && r.sidecarUnknown === null && sidecarScopes(r.placement);

/** Largest first; an unknown sum (nothing measured) after every known one, never as 0. */
function knownFirst(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return b - a;
}

/**
 * Per namespace: proxies, reachable ones, how many no Sidecar selects, cluster sums. Unscoped
 * namespaces come first (they carry the whole mesh), then the heaviest.
 */
export function namespaceSummaries(rows: readonly ProxyFleetRow[]): NamespaceSummary[] {
  const by = new Map<string, NamespaceSummary>();
  for (const r of rows) {
    const s = by.get(r.namespace) ?? {
      namespace: r.namespace,
      proxies: 0,
      reachable: 0,
      unscopedProxies: 0,
      unscoped: false,
      sidecarUnknown: 0,
      clusters: null,
      maxClusters: null,
    };
    s.proxies++;
    if (isUnscoped(r)) s.unscopedProxies++;
    if (r.sidecarUnknown !== null && sidecarScopes(r.placement)) s.sidecarUnknown++;
    if (r.status === 'ok' && r.activeClusters !== null) {
      s.reachable++;
      s.clusters = (s.clusters ?? 0) + r.activeClusters;
      s.maxClusters = Math.max(s.maxClusters ?? r.activeClusters, r.activeClusters);
    }
    by.set(r.namespace, s);
  }
  const out = [...by.values()].map((s) => ({ ...s, unscoped: s.unscopedProxies > 0 }));
  return out.sort(
    (a, b) =>
      Number(b.unscoped) - Number(a.unscoped) ||
      knownFirst(a.clusters, b.clusters) ||
      a.namespace.localeCompare(b.namespace),
  );
}

/** The `limit` workloads with the largest sum of active clusters (their share of the push). */
export function topWorkloads(rows: readonly ProxyFleetRow[], limit = 10): WorkloadSummary[] {
  const by = new Map<string, WorkloadSummary>();
  for (const r of rows) {
    const key = workloadKey({ namespace: r.namespace, kind: r.workloadKind, name: r.workload });
    const w = by.get(key) ?? {
      namespace: r.namespace,
      workload: r.workload,
      workloadKind: r.workloadKind,
      proxies: 0,
      counted: 0,
      clusters: null,
      maxClusters: null,
      unscoped: false,
    };
    w.proxies++;
    if (isUnscoped(r)) w.unscoped = true;
    if (r.status === 'ok' && r.activeClusters !== null) {
      w.counted++;
      w.clusters = (w.clusters ?? 0) + r.activeClusters;
      w.maxClusters = Math.max(w.maxClusters ?? r.activeClusters, r.activeClusters);
    }
    by.set(key, w);
  }
  return [...by.values()]
    .sort(
      (a, b) =>
        knownFirst(a.clusters, b.clusters) ||
        a.namespace.localeCompare(b.namespace) ||
        a.workload.localeCompare(b.workload),
    )
    .slice(0, limit);
}

/**
 * Totals: proxies by status, and sums of the figures that were read. A running proxy whose
 * figure is unknown (unreachable, unknown, late, or read but implausible) is counted as unknown
 * in that sum, never as 0; a sum nothing was read for is null.
 */
export function fleetTotals(rows: readonly ProxyFleetRow[]): FleetTotals {
  const t = {
    proxies: rows.length,
    reachable: 0,
    unreachable: 0,
    notRunning: 0,
    unknown: 0,
    late: 0,
    unscopedProxies: 0,
    sidecarUnknown: 0,
  };
  const running: ProxyFleetRow[] = [];
  for (const r of rows) {
    if (isUnscoped(r)) t.unscopedProxies++;
    if (r.sidecarUnknown !== null && sidecarScopes(r.placement)) t.sidecarUnknown++;
    if (r.status === 'not-running') {
      t.notRunning++;
      continue;
    }
    running.push(r);
    if (r.status === 'unreachable') t.unreachable++;
    else if (r.status === 'unknown') t.unknown++;
    else if (r.status === 'late') t.late++;
    else t.reachable++;
  }
  const figure = (pick: (r: ProxyFleetRow) => number | null) =>
    sumMeasured(running.map((r) => (r.status === 'ok' ? pick(r) : null)));
  return {
    ...t,
    clusters: figure((r) => r.activeClusters),
    serviceClustersEstimate: figure((r) => r.serviceClustersEstimate),
    listeners: figure((r) => r.listeners),
    memoryBytes: figure((r) => r.memoryBytes),
  };
}
