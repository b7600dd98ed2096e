import { envoyProxyStats } from '../../lib/metrics/envoy-stats';
import { parsePrometheusText } from '../../lib/metrics/prometheus';
import type { ScrapeOutcome } from '../../lib/proxies/types';
import { podProxyGet } from '../kube/podports';
import type { KubeTransport } from '../kube/transport';
import type { EnvoyInitTimes } from './init-times';
import { failedRead } from './reason';

/** Envoy's prometheus listener: cheap, always carries cluster_manager/listener_manager/server. */
export const ENVOY_PROMETHEUS_PORT = 15090;

/** Only the families the fleet reads are kept when parsing (a scrape has thousands of lines). */
const WANTED =
  /^(envoy_cluster_manager_|envoy_listener_manager_total_listeners_active|envoy_server_(memory_allocated|state|initialization_time_ms)|istio_build)/;

/** Keeps the lines of the wanted families (and their TYPE/HELP comments). */
export function keepWanted(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const name = line.startsWith('# ') ? (line.split(' ')[2] ?? '') : line;
    if (WANTED.test(name)) out.push(line);
  }
  return out.join('\n') + '\n';
}

/**
 * One proxy's numbers from GET pods/NAME:15090/proxy/stats/prometheus, checked at the door (an
 * impossible gauge is unknown, with its raw value). Never throws: a failure is an outcome with
 * its reason, unreachable only when the API server said the proxy did not answer.
 */
export async function scrapeProxyStats(
  t: KubeTransport,
  namespace: string,
  name: string,
  timeoutMs: number,
  /** Where the proxy's Envoy init time is kept (the cluster runtime's), when wanted. */
  initTimes?: EnvoyInitTimes,
): Promise<ScrapeOutcome> {
  try {
    const res = await podProxyGet(t, namespace, name, ENVOY_PROMETHEUS_PORT, '/stats/prometheus', {
      timeoutMs,
      maxBytes: 64 * 1024 * 1024,
    });
    const parsed = parsePrometheusText(keepWanted(res.body));
    const stats = envoyProxyStats(parsed.samples);
    initTimes?.note(namespace, name, stats, t.clusterNow().getTime());
    return { ok: true, stats, errors: parsed.errors.length };
  } catch (e) {
    return failedRead(e);
  }
}
