/** View rows of the Scoping report: one per workload, one per namespace (ranked by waste). */
import type { ScopingNamespaceRow, WorkloadRow } from '../api/scoping';
import type { Sidecar } from '../kube/types';
import type { WorkloadFacts } from './facts';
import type { Scope } from './scopes';
import { sourcesOf } from './observations';
import { averageFigures, sumFigures, type ProxyFigures } from './predict';
import type { SidecarSelection } from './visibility';

export function sidecarRef(sel: SidecarSelection): WorkloadRow['sidecar'] {
  return {
    source: sel.source,
    namespace: sel.sidecar?.metadata.namespace ?? null,
    name: sel.sidecar?.metadata.name ?? null,
  };
}

function destinationRows(f: WorkloadFacts): WorkloadRow['destinations'] {
  const rows: WorkloadRow['destinations'] = [];
  for (const d of f.traffic.destinations.values()) {
    const sources = sourcesOf(d);
    const best = sources[0];
    if (!best) continue;
    const namespaces = f.usedHosts.get(d.host) ?? [];
    rows.push({
      host: d.host,
      namespaces,
      inRegistry: namespaces.length > 0,
      ports: d.ports,
      sources,
      bestSource: best,
      count: d.counts[best] ?? 0,
      visibleNow: f.scope.byHost.has(d.host),
      clusters: f.scope.byHost.get(d.host) ?? 0,
    });
  }
  return rows.sort((a, b) => a.host.localeCompare(b.host));
}

/** A scope's hosts, most clusters first. */
export type SortedHosts = (scope: Scope) => readonly { host: string; clusters: number }[];

/**
 * Sorted hosts for one report: each scope's list is computed once and shared by the workloads
 * of that scope (a report's scopes are many workloads' each).
 */
export function sortedHostsOnce(): SortedHosts {
  const byScope = new WeakMap<Scope, { host: string; clusters: number }[]>();
  return (scope) => {
    let list = byScope.get(scope);
    if (!list) {
      list = [...scope.byHost.entries()]
        .map(([host, clusters]) => ({ host, clusters }))
        .sort((a, b) => b.clusters - a.clusters || a.host.localeCompare(b.host));
      byScope.set(scope, list);
    }
    return list;
  };
}

function unusedServices(
  f: WorkloadFacts,
  max: number,
  sortedHosts: SortedHosts,
): { list: WorkloadRow['unusedServices']; total: number } {
  if (!f.observed) return { list: [], total: 0 };
  const list: WorkloadRow['unusedServices'] = [];
  let usedVisible = 0;
  for (const h of f.usedHosts.keys()) if (f.scope.byHost.has(h)) usedVisible += 1;
  for (const e of sortedHosts(f.scope)) {
    if (list.length >= max) break;
    if (!f.usedHosts.has(e.host)) list.push({ ...e });
  }
  return { list, total: f.scope.byHost.size - usedVisible };
}

export function workloadRow(
  f: WorkloadFacts,
  proxies: readonly ProxyFigures[],
  cutOff: string[],
  proposedSidecar: string | null,
  maxUnused: number,
  sortedHosts: SortedHosts,
): WorkloadRow {
  const total = sumFigures(proxies);
  const unused = unusedServices(f, maxUnused, sortedHosts);
  return {
    namespace: f.workload.namespace,
    name: f.workload.name,
    kind: f.workload.kind,
    replicas: f.workload.pods.length,
    sidecar: sidecarRef(f.scope.selection),
    observed: f.observed,
    sources: f.traffic.sources.map((s) => ({ ...s, errors: [...s.errors] })),
    destinations: destinationRows(f),
    cutOff,
    unusedServices: unused.list,
    unusedServicesTotal: unused.total,
    clusters: averageFigures(total, proxies.length),
    clustersTotal: total,
    proxies: proxies.map((p) => ({
      pod: p.pod,
      measuredActive: p.measuredActive,
      measuredService: p.measuredService,
      inbound: p.inbound,
      nonService: p.nonService,
      clusters: {
        current: p.current,
        measured: p.measured,
        modelled: p.modelled,
        minimum: p.minimum,
        predicted: p.predicted,
        unused: p.unused,
      },
    })),
    proposedSidecar,
  };
}

function defaultRef(
  ns: string,
  sidecars: readonly Sidecar[],
  root: string,
): WorkloadRow['sidecar'] {
  const isDefault = (s: Sidecar) =>
    Object.keys(s.spec?.workloadSelector?.labels ?? {}).length === 0;
  const oldest = (list: Sidecar[]) =>
    list.sort(
      (a, b) =>
        (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
        a.metadata.name.localeCompare(b.metadata.name),
    )[0];
  const own = oldest(
    sidecars.filter((s) => (s.metadata.namespace ?? 'default') === ns && isDefault(s)),
  );
  if (own) return { source: 'namespace', namespace: ns, name: own.metadata.name };
  const rootDefault = oldest(
    sidecars.filter((s) => (s.metadata.namespace ?? 'default') === root && isDefault(s)),
  );
  if (rootDefault) return { source: 'root', namespace: root, name: rootDefault.metadata.name };
  return { source: 'none', namespace: null, name: null };
}

/** Largest waste first; an unknown one after every known one. */
function byWaste(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return b - a;
}

/**
 * A namespace's waste: clusters today minus the minimum its proxies need, the two figures its
 * row shows beside it. Unknown (null) when none of its workloads was observed: the minimum of a
 * proxy nobody saw calling anything is not known. With some workloads unobserved the figure is
 * partial (their minimum counts no called service), and the row says how many.
 */
export function namespaceWaste(
  clusters: { current: number; minimum: number },
  workloads: number,
  unobserved: number,
): number | null {
  return unobserved >= workloads ? null : clusters.current - clusters.minimum;
}

/** Namespace rows, ranked by waste (clusters today - minimum) then by name. */
export function namespaceRows(
  rows: readonly WorkloadRow[],
  sidecars: readonly Sidecar[],
  root: string,
): ScopingNamespaceRow[] {
  const byNs = new Map<string, WorkloadRow[]>();
  for (const r of rows) byNs.set(r.namespace, [...(byNs.get(r.namespace) ?? []), r]);
  const out = [...byNs.entries()].map(([name, list]) => {
    const clusters = sumFigures(list.map((r) => r.clustersTotal));
    const unobserved = list.filter((r) => !r.observed).length;
    return {
      name,
      rank: 0,
      defaultSidecar: defaultRef(name, sidecars, root),
      workloadSidecars: list
        .filter((r) => r.sidecar.source === 'workload')
        .map((r) => ({ workload: r.name, sidecar: r.sidecar.name ?? '' })),
      workloads: list.length,
      proxies: list.reduce((n, r) => n + r.replicas, 0),
      unobservedWorkloads: unobserved,
      clusters,
      // unknown when no workload was observed: never 0 for "not measured"
      waste: namespaceWaste(clusters, list.length, unobserved),
    };
  });
  out.sort((a, b) => byWaste(a.waste, b.waste) || a.name.localeCompare(b.name));
  out.forEach((r, i) => (r.rank = i + 1));
  return out;
}
