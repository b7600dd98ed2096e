import { directionClass, clusterColumns } from '../refs/cluster-name';
import type { ClusterRow, ClusterSummary } from './types';

/** True for Istio service clusters (`inbound|...`, `outbound|...` and their -vip variants). */
export function isServiceCluster(row: ClusterRow): boolean {
  const p = clusterColumns(row.name);
  return p.istio && directionClass(p.direction) !== 'other';
}

export function summarizeClusters(rows: readonly ClusterRow[]): ClusterSummary {
  const s: ClusterSummary = {
    total: rows.length,
    static: 0,
    dynamic: 0,
    byType: {},
    byDirection: { inbound: 0, outbound: 0, other: 0 },
    service: 0,
    nonService: 0,
  };
  for (const row of rows) {
    if (row.source === 'static') s.static++;
    else s.dynamic++;
    s.byType[row.type] = (s.byType[row.type] ?? 0) + 1;
    const p = clusterColumns(row.name);
    s.byDirection[p.istio ? directionClass(p.direction) : 'other']++;
    if (isServiceCluster(row)) s.service++;
    else s.nonService++;
  }
  return s;
}
