import type { ProxyFleetRow, FleetTotals, NamespaceSummary, WorkloadSummary } from '../api/proxies';
import { sidecarScopes } from '../kube/proxy-container';
import { workloadKey } from '../refs/workload-ref';

/** A sidecar no Sidecar resource selects (a gateway's or waypoint's proxy none can scope). */
const isUnscoped = (r: ProxyFleetRow) => r.sidecar === null && sidecarScopes(r.placement);

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
      clusters: 0,
      maxClusters: null,
    };
    s.proxies++;
    if (isUnscoped(r)) s.unscopedProxies++;
    if (r.status === 'ok' && r.activeClusters !== null) {
      s.reachable++;
      s.clusters += r.activeClusters;
      s.maxClusters = Math.max(s.maxClusters ?? 0, r.activeClusters);
    }
    by.set(r.namespace, s);
  }
  const out = [...by.values()].map((s) => ({ ...s, unscoped: s.unscopedProxies > 0 }));
  return out.sort(
    (a, b) =>
      Number(b.unscoped) - Number(a.unscoped) ||
      b.clusters - a.clusters ||
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
      clusters: 0,
      maxClusters: 0,
      unscoped: false,
    };
    w.proxies++;
    if (isUnscoped(r)) w.unscoped = true;
    if (r.status === 'ok' && r.activeClusters !== null) {
      w.counted++;
      w.clusters += r.activeClusters;
      w.maxClusters = Math.max(w.maxClusters, r.activeClusters);
    }
    by.set(key, w);
  }
  return [...by.values()]
    .sort(
      (a, b) =>
        b.clusters - a.clusters ||
        a.namespace.localeCompare(b.namespace) ||
        a.workload.localeCompare(b.workload),
    )
    .slice(0, limit);
}

export function fleetTotals(rows: readonly ProxyFleetRow[]): FleetTotals {
  const t: FleetTotals = {
    proxies: rows.length,
    reachable: 0,
    unreachable: 0,
    notRunning: 0,
    unknown: 0,
    late: 0,
    clusters: 0,
    serviceClustersEstimate: 0,
    listeners: 0,
    memoryBytes: 0,
    unscopedProxies: 0,
  };
  for (const r of rows) {
    if (isUnscoped(r)) t.unscopedProxies++;
    if (r.status === 'unreachable') t.unreachable++;
    else if (r.status === 'not-running') t.notRunning++;
    else if (r.status === 'unknown') t.unknown++;
    else if (r.status === 'late') t.late++;
    else {
      t.reachable++;
      t.clusters += r.activeClusters ?? 0;
      t.serviceClustersEstimate += r.serviceClustersEstimate ?? 0;
      t.listeners += r.listeners ?? 0;
      t.memoryBytes += r.memoryBytes ?? 0;
    }
  }
  return t;
}
