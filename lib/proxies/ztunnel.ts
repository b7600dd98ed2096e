/**
 * ztunnels in the Proxies screen: a fleet row per ztunnel (workloads and services its config
 * holds, the stale ones, its memory) and the workload table of one, from its /config_dump read
 * through lib/ambient/ztunnel.ts's reader interface.
 */
import type { ZtunnelDetail, ZtunnelRow } from '../api/proxies';
import { ztunnelWorkloadRows, type ZtunnelConfigRead } from '../ambient/ztunnel';
import type { Pod } from '../kube/types';

/** What reading one ztunnel gave: its config, or why there is none. */
export type ZtunnelRead = { ok: true; read: ZtunnelConfigRead } | { ok: false; problem: string };

function ready(p: Pod): boolean {
  return p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function ztunnelRow(
  pod: Pod,
  read: ZtunnelRead,
  livePods: readonly Pod[],
  memoryBytes: number | null,
): ZtunnelRow {
  const base = {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name,
    node: pod.spec?.nodeName ?? null,
    ready: ready(pod),
    memoryBytes,
  };
  if (!read.ok) {
    return { ...base, workloads: null, services: null, stale: null, problem: read.problem };
  }
  const rows = ztunnelWorkloadRows(read.read.config, livePods);
  const errors = read.read.errors.length;
  return {
    ...base,
    workloads: rows.length,
    services: read.read.config.services.length,
    stale: rows.filter((r) => r.stale !== null).length,
    problem: errors > 0 ? `${errors} entries of the dump could not be read` : null,
  };
}

export function ztunnelDetail(
  pod: Pod,
  read: ZtunnelRead,
  livePods: readonly Pod[],
  fetchedAt: Date,
): ZtunnelDetail {
  const base = {
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name,
    node: pod.spec?.nodeName ?? null,
    fetchedAt: fetchedAt.toISOString(),
  };
  if (!read.ok) {
    const unread = { workloads: [], services: 0, stale: 0, errors: [] };
    return { ...base, read: false, problem: read.problem, ...unread };
  }
  const workloads = ztunnelWorkloadRows(read.read.config, livePods);
  return {
    ...base,
    read: true,
    problem: null,
    workloads,
    services: read.read.config.services.length,
    stale: workloads.filter((w) => w.stale !== null).length,
    errors: read.read.errors,
  };
}

/** `123456Ki`, `512Mi`, `1Gi`, `1048576` -> bytes; null when unreadable. */
export function quantityBytes(q: string | undefined): number | null {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q ?? '');
  if (!m) return null;
  const mult: Record<string, number> = {
    Ki: 1024,
    Mi: 1024 ** 2,
    Gi: 1024 ** 3,
    Ti: 1024 ** 4,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
  };
  return Math.round(Number(m[1]) * (m[2] ? (mult[m[2]] ?? 1) : 1));
}
