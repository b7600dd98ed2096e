import type { ClusterRowView, ProxyFleetRow } from '../api/proxies';

export interface FleetFilter {
  namespace?: string;
  workload?: string;
  /** Substring of pod name, workload or namespace (case-insensitive). */
  q?: string;
}

export function filterFleetRows(rows: readonly ProxyFleetRow[], f: FleetFilter): ProxyFleetRow[] {
  const q = f.q?.toLowerCase();
  return rows.filter(
    (r) =>
      (!f.namespace || r.namespace === f.namespace) &&
      (!f.workload || r.workload === f.workload) &&
      (!q || r.key.toLowerCase().includes(q) || r.workload.toLowerCase().includes(q)),
  );
}

export interface ClusterFilter {
  /** Substring of the FQDN (or whole cluster name). */
  fqdn?: string;
  port?: string;
  direction?: string;
  type?: string;
  /** 'used', 'unused' or undefined for all. */
  usage?: string;
}

export function filterClusterRows(
  rows: readonly ClusterRowView[],
  f: ClusterFilter,
): ClusterRowView[] {
  const q = f.fqdn?.toLowerCase();
  return rows.filter(
    (r) =>
      (!q || r.fqdn.toLowerCase().includes(q) || r.name.toLowerCase().includes(q)) &&
      (!f.port || String(r.port) === f.port) &&
      (!f.direction || r.direction === f.direction) &&
      (!f.type || r.type === f.type) &&
      (!f.usage || (f.usage === 'used' ? r.used === true : r.used === false)),
  );
}

/** Distinct values of a column, sorted, for a filter's options. */
export function distinctValues<T>(rows: readonly T[], pick: (r: T) => string | number): string[] {
  const set = new Set(rows.map((r) => String(pick(r))));
  return [...set].sort((a, b) => {
    const na = Number(a);
    const nb = Number(b);
    return Number.isFinite(na) && Number.isFinite(nb) ? na - nb : a.localeCompare(b);
  });
}
