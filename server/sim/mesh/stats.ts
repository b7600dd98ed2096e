/**
 * Envoy stats of a simulated proxy: the always-exported `cluster_manager`, `listener_manager` and
 * `server` families, xds-grpc cluster stats, and (for /stats on 15000 only) per-cluster traffic
 * counters, non-zero only for the upstreams the pod calls (annotation `sim.meshdx.io/calls`).
 */
import { parseCalls } from './annotations';
import { calledRequests } from './istio-requests';
import { outboundListenerCount, staticListeners } from './listeners';
import { liveAt, type ProxyContext } from './proxy';
import { proxyReady, stableHash } from './world';
import type { HistogramStat, StatEntry } from './stat-entry';

/** Envoy's default histogram buckets. */
export const ENVOY_BUCKETS = [
  0.5, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 300000, 600000,
  1800000, 3600000,
];

/** Envoy ServerInfo.State: LIVE 0, DRAINING 1, PRE_INITIALIZING 2, INITIALIZING 3. */
export function serverState(ctx: ProxyContext): { name: string; code: number } {
  if (ctx.pod.metadata.deletionTimestamp) return { name: 'DRAINING', code: 1 };
  return proxyReady(ctx.pod) ? { name: 'LIVE', code: 0 } : { name: 'INITIALIZING', code: 3 };
}

export function activeClusterCount(ctx: ProxyContext): number {
  return ctx.clusters.staticClusters.length + ctx.clusters.dynamicClusters.length;
}

export function listenerCount(ctx: ProxyContext): number {
  return (
    staticListeners().length +
    (ctx.clusters.gateway ? 0 : 2) +
    outboundListenerCount(ctx.clusters.outbound)
  );
}

function clusterStat(
  cluster: string,
  stat: string,
  value: number,
  kind: 'counter' | 'gauge',
): StatEntry {
  return {
    name: `cluster.${cluster}.${stat}`,
    value,
    kind,
    prom: { name: `envoy_cluster_${stat}`, tags: { cluster_name: cluster } },
  };
}

/** Server-wide stats plus xds-grpc; `perCluster` adds every cluster's traffic counters. */
export function proxyStats(
  ctx: ProxyContext,
  perCluster: boolean,
): { stats: StatEntry[]; histograms: HistogramStat[] } {
  const clusters = activeClusterCount(ctx);
  const listeners = listenerCount(ctx);
  const state = serverState(ctx);
  const uptime = Math.max(0, Math.floor((ctx.now.getTime() - ctx.startedAt.getTime()) / 1000));
  const updates = 1 + Math.floor(uptime / 300) + (stableHash(ctx.configVersion) % 7);
  const memory = 20 * 1024 * 1024 + clusters * 30 * 1024 + listeners * 8 * 1024;
  const stats: StatEntry[] = [
    { name: 'cluster_manager.active_clusters', value: clusters, kind: 'gauge' },
    { name: 'cluster_manager.warming_clusters', value: 0, kind: 'gauge' },
    { name: 'cluster_manager.cds.update_success', value: updates, kind: 'counter' },
    { name: 'cluster_manager.cds.update_rejected', value: 0, kind: 'counter' },
    { name: 'cluster_manager.cluster_added', value: clusters, kind: 'counter' },
    { name: 'listener_manager.total_listeners_active', value: listeners, kind: 'gauge' },
    { name: 'listener_manager.total_listeners_warming', value: 0, kind: 'gauge' },
    { name: 'listener_manager.lds.update_success', value: updates, kind: 'counter' },
    { name: 'server.memory_allocated', value: memory, kind: 'gauge' },
    {
      name: 'server.memory_heap_size',
      value: Math.ceil((memory * 1.25) / 1048576) * 1048576,
      kind: 'gauge',
    },
    { name: 'server.state', value: state.code, kind: 'gauge' },
    { name: 'server.live', value: state.code === 0 ? 1 : 0, kind: 'gauge' },
    { name: 'server.uptime', value: uptime, kind: 'gauge' },
    { name: 'server.concurrency', value: 2, kind: 'gauge' },
    { name: 'server.total_connections', value: 0, kind: 'gauge' },
    clusterStat('xds-grpc', 'upstream_cx_total', 1, 'counter'),
    clusterStat('xds-grpc', 'upstream_rq_total', 1, 'counter'),
    clusterStat('xds-grpc', 'upstream_cx_active', 1, 'gauge'),
  ];
  if (perCluster) {
    const { calls } = parseCalls(ctx.pod);
    for (const c of ctx.clusters.dynamicClusters) {
      const rq = calledRequests(ctx, calls, c);
      const cx = rq > 0 ? Math.ceil(rq / 20) : 0;
      stats.push(
        clusterStat(c.name, 'upstream_cx_total', cx, 'counter'),
        clusterStat(c.name, 'upstream_rq_total', rq, 'counter'),
      );
      if (c.type === 'EDS') {
        const eps = ctx.endpoints.forCluster(c, ctx.pod);
        stats.push(
          clusterStat(c.name, 'membership_total', eps.length, 'gauge'),
          clusterStat(c.name, 'membership_healthy', eps.filter((e) => e.healthy).length, 'gauge'),
        );
      }
    }
  }
  const liveMs = liveAt(ctx).getTime() <= ctx.now.getTime() ? ctx.initMs : undefined;
  return {
    stats,
    histograms: [
      { name: 'server.initialization_time_ms', values: liveMs === undefined ? [] : [liveMs] },
    ],
  };
}

function quantiles(values: number[]): string {
  const qs = ['P0', 'P25', 'P50', 'P75', 'P90', 'P95', 'P99', 'P99.5', 'P99.9', 'P100'];
  if (values.length === 0) return 'No recorded values';
  const v = values[0] ?? 0;
  return qs.map((q) => `${q}(nan,${v})`).join(' ');
}

/** The `filter` regex and `usedonly` flag of /stats, or the 400 body Envoy answers a bad regex. */
export interface StatsSelection {
  stats: StatEntry[];
  histograms: HistogramStat[];
}

export function selectStats(
  ctx: ProxyContext,
  query: URLSearchParams,
): StatsSelection | { error: string } {
  let re: RegExp | undefined;
  const filter = query.get('filter');
  if (filter) {
    try {
      re = new RegExp(filter);
    } catch {
      return { error: 'Invalid regex: "' + filter + '"\n' };
    }
  }
  const usedOnly = query.has('usedonly');
  const { stats, histograms } = proxyStats(ctx, true);
  return {
    stats: stats
      .filter((s) => (!re || re.test(s.name)) && (!usedOnly || s.value !== 0))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    histograms: histograms.filter(
      (h) => (!re || re.test(h.name)) && (!usedOnly || h.values.length > 0),
    ),
  };
}

/** GET /stats (text): `name: value` sorted, histograms last; `filter` regex and `usedonly`. */
export function statsText(
  ctx: ProxyContext,
  query: URLSearchParams,
): { status: number; body: string } {
  const sel = selectStats(ctx, query);
  if ('error' in sel) return { status: 400, body: sel.error };
  const lines = sel.stats.map((s) => `${s.name}: ${s.value}`);
  for (const h of sel.histograms) lines.push(`${h.name}: ${quantiles(h.values)}`);
  return { status: 200, body: lines.join('\n') + '\n' };
}
