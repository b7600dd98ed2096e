import type { ClusterRowView, ProxyDetail } from '../api/proxies';
import { isServiceCluster, summarizeClusters } from '../configdump/summary';
import type { ClusterRow, ResourceCounts } from '../configdump/types';

/** Namespace of a Kubernetes service host `NAME.NS.svc[.DOMAIN]`, else null. */
export function destinationNamespace(fqdn: string): string | null {
  const parts = fqdn.split('.');
  const svc = parts.indexOf('svc');
  if (svc === 2 && parts[0] && parts[1]) return parts[1];
  return null;
}

export interface UsageTable {
  /** cluster name -> counter -> value, from /stats?filter=...&usedonly. */
  counters: Record<string, Record<string, number>>;
}

export interface DetailParts {
  namespace: string;
  name: string;
  fetchedAt: Date;
  clusters: { rows: ClusterRow[]; warming: number } | null;
  listeners: ResourceCounts | null;
  routes: ResourceCounts | null;
  usage: UsageTable | null;
  errors: { part: string; message: string }[];
}

/** An `outbound|PORT|SUBSET|FQDN` cluster: a destination the proxy may or may not call. */
export function isOutboundServiceCluster(
  v: Pick<ClusterRowView, 'service' | 'direction'>,
): boolean {
  return v.service && v.direction === 'outbound';
}

function isUsed(counters: Record<string, number> | undefined): boolean {
  if (!counters) return false;
  return Object.values(counters).some((v) => v > 0);
}

/** One proxy's istioctl cluster table, with used/unused where per-cluster stats exist. */
export function buildProxyDetail(p: DetailParts): ProxyDetail {
  const rows = p.clusters?.rows ?? [];
  const usage = p.usage;
  const views: ClusterRowView[] = rows.map((r) => ({
    name: r.name,
    fqdn: r.fqdn,
    port: r.port,
    subset: r.subset,
    direction: r.direction,
    type: r.type,
    destinationRule: r.destinationRule,
    source: r.source,
    destinationNamespace: destinationNamespace(r.fqdn),
    service: isServiceCluster(r),
    used: usage ? isUsed(usage.counters[r.name]) : null,
  }));
  const s = summarizeClusters(rows);
  const byNs = new Map<string, number>();
  for (const v of views) {
    if (!v.service || v.direction.startsWith('inbound')) continue;
    const ns = v.destinationNamespace ?? '(not a Kubernetes service)';
    byNs.set(ns, (byNs.get(ns) ?? 0) + 1);
  }
  const names = new Set(rows.map((r) => r.name));
  // Used vs unused only over outbound service clusters: xds-grpc is always "used", and inbound,
  // BlackHole or agent clusters are not destinations a Sidecar could drop.
  const outbound = views.filter(isOutboundServiceCluster);
  const used = outbound.filter((v) => v.used === true).length;
  const why = (part: string) => {
    const messages = p.errors.filter((e) => e.part === part).map((e) => e.message);
    return `the ${part} could not be read${messages.length > 0 ? `: ${messages.join('; ')}` : ''}`;
  };
  // no clusters read: no count of them is known (an unread table is not an empty one)
  const clustersUnknown = p.clusters === null ? why('clusters') : null;
  const usageUnknown =
    clustersUnknown ?? (p.errors.some((e) => e.part === 'usage') ? why('usage') : null);
  return {
    namespace: p.namespace,
    name: p.name,
    fetchedAt: p.fetchedAt.toISOString(),
    clusters: views,
    summary:
      clustersUnknown !== null
        ? {
            total: null,
            static: null,
            dynamic: null,
            service: null,
            nonService: null,
            warming: null,
            byType: null,
            byDirection: null,
            unknown: clustersUnknown,
          }
        : {
            total: s.total,
            static: s.static,
            dynamic: s.dynamic,
            service: s.service,
            nonService: s.nonService,
            warming: p.clusters?.warming ?? 0,
            byType: s.byType,
            byDirection: s.byDirection,
            unknown: null,
          },
    byNamespace: [...byNs]
      .map(([namespace, clusters]) => ({ namespace, clusters }))
      .sort((a, b) => b.clusters - a.clusters || a.namespace.localeCompare(b.namespace)),
    listeners: p.listeners,
    routes: p.routes,
    usage:
      usageUnknown !== null
        ? { available: false, used: null, unused: null, unmatched: null, unknown: usageUnknown }
        : {
            available: usage !== null,
            used,
            unused: usage ? outbound.length - used : 0,
            unmatched: usage ? Object.keys(usage.counters).filter((n) => !names.has(n)).length : 0,
          },
    errors: p.errors,
  };
}
