/**
 * Every simulated proxy's Envoy series on one scrape endpoint (GET /_sim/envoy/metrics), as a
 * Prometheus with Istio's standard scrape config holds them: each proxy's own :15090 body (built
 * by the same envoyPrometheus the pods/proxy path serves), reduced to the families meshdx's fleet
 * reads, with the `namespace` and `pod` labels that config's relabelling adds. A proxy whose
 * ports do not answer (not running, or the unreachablePods fault) has no series, as its failed
 * scrape would leave none.
 *
 * The proxy contexts are built once per render from one snapshot of the world (one endpoint
 * index, one scope cache), not through the emulator's per-request path, whose change detection
 * walks every pod per call: 20,000 proxies render in seconds instead of minutes.
 */
import type { ServerResponse } from 'node:http';
import type { KubeObject } from '../../../lib/kube/types';
import { faultKey } from '../store/faults';
import { createEndpointIndexCache } from './endpoints';
import { envoyPrometheus } from './prometheus';
import { buildProxyContext } from './proxy';
import { createScopeCache } from './scope';
import type { MeshKind } from './types';
import { configVersionOf, hasProxy, podIp, proxyRunning, viewOf } from './world';

/**
 * What the exposition reads of the running simulator (its request context has all of it): the
 * clock, the stored objects and the pods the unreachable fault hides.
 */
export interface FleetExpositionInput {
  clock: { now(): Date };
  store: { list(kind: MeshKind): readonly KubeObject[] };
  faults: { unreachablePods: ReadonlySet<string> };
}

/** The families the exposition keeps (what a fleet from Prometheus asks for). */
const FAMILIES = new Set([
  'envoy_cluster_manager_active_clusters',
  'envoy_cluster_manager_warming_clusters',
  'envoy_listener_manager_total_listeners_active',
  'envoy_server_memory_allocated',
  'envoy_server_state',
  'istio_build',
  'istio_requests_total',
]);

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** `name{tags} value` with the pod's labels added to the tags. */
function withPodLabels(line: string, labels: string): string | null {
  const brace = line.indexOf('{');
  const space = line.indexOf(' ');
  if (brace > 0 && (space < 0 || brace < space)) {
    const close = line.indexOf('}', brace);
    if (close < 0) return null;
    const tags = line.slice(brace + 1, close);
    return `${line.slice(0, brace)}{${tags ? `${tags},` : ''}${labels}}${line.slice(close + 1)}`;
  }
  if (space < 0) return null;
  return `${line.slice(0, space)}{${labels}}${line.slice(space)}`;
}

/** The exposition text for these pods. */
export function renderEnvoyFleet(ctx: FleetExpositionInput): string {
  const families = new Map<string, { type: string; lines: string[] }>();
  const now = ctx.clock.now();
  const view = viewOf({ now: () => now, list: (kind) => ctx.store.list(kind) });
  const scopes = createScopeCache();
  const endpoints = createEndpointIndexCache().get(view);
  const configVersion = configVersionOf(view);
  for (const pod of view.pods) {
    if (!hasProxy(pod) || !podIp(pod) || !proxyRunning(pod)) continue;
    if (ctx.faults.unreachablePods.has(faultKey(pod))) continue;
    const proxy = buildProxyContext(
      pod,
      now,
      scopes.clustersFor(pod, view),
      endpoints,
      configVersion,
    );
    const res = { body: envoyPrometheus(proxy) };
    const labels = `namespace="${escape(pod.metadata.namespace ?? 'default')}",pod="${escape(pod.metadata.name)}"`;
    let type = '';
    for (const line of res.body.split('\n')) {
      if (line.startsWith('# TYPE ')) {
        type = line.split(' ')[3] ?? 'untyped';
        continue;
      }
      if (line === '' || line.startsWith('#')) continue;
      const name = line.slice(
        0,
        Math.min(...[line.indexOf('{'), line.indexOf(' ')].filter((i) => i > 0)),
      );
      if (!FAMILIES.has(name)) continue;
      const labelled = withPodLabels(line, labels);
      if (labelled === null) continue;
      const f = families.get(name) ?? { type, lines: [] };
      f.lines.push(labelled);
      families.set(name, f);
    }
  }
  const out: string[] = [];
  for (const [name, f] of [...families].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`# TYPE ${name} ${f.type}`, ...f.lines);
  }
  return out.join('\n') + '\n';
}

/** GET /_sim/envoy/metrics. */
export function sendEnvoyFleetMetrics(ctx: FleetExpositionInput, res: ServerResponse): void {
  const body = renderEnvoyFleet(ctx);
  res.writeHead(200, {
    'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}
