/**
 * Istio's standard request metric as a client sidecar writes it on :15090 (the proxy's stats
 * extension): `istio_requests_total{reporter="source",...}` per destination service the pod has
 * called, with the same counts as its per-cluster `upstream_rq_total` on /stats. A pod that has
 * called nothing has no series, as a real proxy creates them on the first request. Only clusters
 * the proxy holds are counted: a Sidecar that drops a host drops its series.
 */
import { workloadOf } from '../../../lib/refs/workload-ref';
import { parseCalls } from './annotations';
import type { ProxyContext } from './proxy';
import type { StatEntry } from './stat-entry';
import { stableHash } from './world';

/** Requests the pod made to this outbound cluster (0 when it does not call it). */
export function calledRequests(
  ctx: ProxyContext,
  calls: ReadonlyMap<string, number | undefined>,
  c: { name: string; direction?: string; subset?: string; host?: string; port?: number },
): number {
  if (c.direction !== 'outbound' || c.subset || c.host === undefined) return 0;
  const key = `${c.host}:${c.port}`;
  if (!calls.has(key)) return 0;
  return calls.get(key) ?? 100 + (stableHash(`${ctx.key}|${c.name}`) % 5000);
}

/** One `istio_requests_total` entry per called destination service (ports summed). */
export function istioRequestStats(ctx: ProxyContext): StatEntry[] {
  const { calls } = parseCalls(ctx.pod);
  if (calls.size === 0) return [];
  const byHost = new Map<string, number>();
  for (const c of ctx.clusters.dynamicClusters) {
    const rq = calledRequests(ctx, calls, c);
    if (rq > 0 && c.host !== undefined) byHost.set(c.host, (byHost.get(c.host) ?? 0) + rq);
  }
  const ns = ctx.pod.metadata.namespace ?? 'default';
  const workload = workloadOf(ctx.pod).name;
  return [...byHost].map(([host, value]) => {
    const [name = host, namespace = ''] = host.split('.');
    return {
      name: `istio_requests_total.${host}`,
      value,
      kind: 'counter' as const,
      prom: {
        name: 'istio_requests_total',
        tags: {
          reporter: 'source',
          source_workload: workload,
          source_workload_namespace: ns,
          destination_service: host,
          destination_service_name: name,
          destination_service_namespace: namespace,
          response_code: '200',
        },
      },
    };
  });
}
