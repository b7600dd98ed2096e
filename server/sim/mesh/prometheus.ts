/**
 * Prometheus text exposition as Envoy writes it on :15090 /stats/prometheus (`# TYPE` line, then
 * `name{tags} value`, empty tags as `{}`; counters, gauges, then histograms), and pilot-agent's
 * merged output on :15020 (Envoy's plus istio_agent_* metrics).
 */
import { istioRequestStats } from './istio-requests';
import { ENVOY_BUCKETS, proxyStats } from './stats';
import type { StatEntry } from './stat-entry';
import type { ProxyContext } from './proxy';
import { stableHash } from './world';

function promName(flat: string): string {
  return `envoy_${flat.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

function tagText(tags: Record<string, string>): string {
  const parts = Object.entries(tags).map(
    ([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`,
  );
  return `{${parts.join(',')}}`;
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function groupByName(stats: StatEntry[]): Map<string, { kind: string; lines: string[] }> {
  const out = new Map<string, { kind: string; lines: string[] }>();
  for (const s of stats) {
    const name = s.prom?.name ?? promName(s.name);
    const g = out.get(name) ?? { kind: s.kind, lines: [] };
    g.lines.push(`${name}${tagText(s.prom?.tags ?? {})} ${formatNumber(s.value)}`);
    out.set(name, g);
  }
  return out;
}

/**
 * `istio_build{component="proxy",tag=VERSION}`: written by the proxy's own istio_stats extension
 * (istio/proxy#2431, #4221), so a real Envoy has it on :15090 and on admin
 * /stats?format=prometheus, not only in pilot-agent's merged output on :15020.
 */
export function istioBuildStat(ctx: ProxyContext): StatEntry {
  return {
    name: 'istio_build',
    value: 1,
    kind: 'gauge',
    prom: { name: 'istio_build', tags: { component: 'proxy', tag: ctx.clusters.version } },
  };
}

/** Envoy's /stats/prometheus body. */
export function envoyPrometheus(ctx: ProxyContext): string {
  const { stats, histograms } = proxyStats(ctx, false);
  const all = [...stats, istioBuildStat(ctx), ...istioRequestStats(ctx)];
  const lines: string[] = [];
  for (const kind of ['counter', 'gauge'] as const) {
    const groups = groupByName(all.filter((s) => s.kind === kind));
    for (const name of [...groups.keys()].sort()) {
      lines.push(`# TYPE ${name} ${kind}`, ...(groups.get(name)?.lines ?? []));
    }
  }
  for (const h of histograms) {
    const name = promName(h.name);
    lines.push(`# TYPE ${name} histogram`);
    for (const le of ENVOY_BUCKETS) {
      lines.push(`${name}_bucket{le="${le}"} ${h.values.filter((v) => v <= le).length}`);
    }
    lines.push(`${name}_bucket{le="+Inf"} ${h.values.length}`);
    lines.push(`${name}_sum{} ${formatNumber(h.values.reduce((a, b) => a + b, 0))}`);
    lines.push(`${name}_count{} ${h.values.length}`);
  }
  return lines.join('\n') + '\n';
}

/**
 * pilot-agent :15020 /stats/prometheus: Envoy's metrics (istio_build included) merged with the
 * agent's own.
 */
export function mergedPrometheus(ctx: ProxyContext): string {
  const h = stableHash(ctx.key);
  const agent = [
    '# HELP istio_agent_go_goroutines Number of goroutines that currently exist.',
    '# TYPE istio_agent_go_goroutines gauge',
    `istio_agent_go_goroutines ${30 + (h % 20)}`,
    '# HELP istio_agent_process_resident_memory_bytes Resident memory size in bytes.',
    '# TYPE istio_agent_process_resident_memory_bytes gauge',
    `istio_agent_process_resident_memory_bytes ${40_000_000 + (h % 10_000_000)}`,
    '# HELP istio_agent_scrapes_total The total number of scrapes.',
    '# TYPE istio_agent_scrapes_total counter',
    `istio_agent_scrapes_total ${1 + Math.floor((ctx.now.getTime() - ctx.startedAt.getTime()) / 15000)}`,
    '# HELP istio_agent_xds_proxy_requests The total number of Xds Proxy Requests',
    '# TYPE istio_agent_xds_proxy_requests counter',
    `istio_agent_xds_proxy_requests ${4 + (h % 50)}`,
  ];
  return envoyPrometheus(ctx) + agent.join('\n') + '\n';
}
