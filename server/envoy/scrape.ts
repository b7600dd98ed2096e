import { envoyProxyStats } from '../../lib/metrics/envoy-stats';
import { parsePrometheusText } from '../../lib/metrics/prometheus';
import type { ScrapeOutcome } from '../../lib/proxies/types';
import { podProxyGet } from '../kube/podports';
import type { KubeTransport } from '../kube/transport';
import type { EnvoyInitTimes } from './init-times';
import { failedRead } from './reason';

/** Envoy's prometheus listener: cheap, always carries cluster_manager/listener_manager/server. */
export const ENVOY_PROMETHEUS_PORT = 15090;

/**
 * Only the families the fleet reads are kept when parsing (a scrape has thousands of lines).
 * Tested at one position of the whole text (a sticky copy per call), so no line is cut out.
 */
const WANTED =
  /(envoy_cluster_manager_|envoy_listener_manager_total_listeners_active|envoy_server_(memory_allocated|state|initialization_time_ms)|istio_build)/;

/**
 * Keeps the lines of the wanted families (and their TYPE/HELP comments). Walks the text line by
 * line without splitting it: a proxy with thousands of clusters answers megabytes of stats, and
 * the fleet reads dozens at a time, so only the few kept lines are made into strings.
 */
export function keepWanted(text: string): string {
  const wanted = new RegExp(WANTED.source, 'y');
  const out: string[] = [];
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    // a comment names its family third: "# TYPE name type", "# HELP name text"
    const comment = text.startsWith('# ', start);
    const nameAt = comment ? text.indexOf(' ', start + 2) + 1 : start;
    if ((!comment || nameAt > 0) && nameAt < end) {
      wanted.lastIndex = nameAt;
      if (wanted.test(text) && wanted.lastIndex <= end) out.push(text.slice(start, end));
    }
    start = end + 1;
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
