/**
 * istiod push health from its monitoring port (:15014 /metrics): how long config changes take to
 * reach proxies (pilot_proxy_convergence_time), how many pushes went out by type
 * (pilot_xds_pushes), connected proxies and pushed config size. Read from every istiod replica.
 */
import type { IstiodPush } from '../../../lib/api/scoping-view';
import type { Pod } from '../../../lib/kube/types';
import { histogramQuantile, readHistogram } from '../../../lib/metrics/histogram';
import { parsePrometheusText } from '../../../lib/metrics/prometheus';
import type { Sample } from '../../../lib/metrics/types';
import { failureReason } from '../../envoy/reason';
import { podProxyGet } from '../../kube/podports';
import type { KubeTransport } from '../../kube/transport';

export const ISTIOD_MONITORING_PORT = 15014;

const WANTED =
  /^(pilot_proxy_convergence_time|pilot_xds_pushes|pilot_xds|pilot_services|pilot_xds_config_size_bytes)(_|\{|\s|$)/;

function firstValue(samples: readonly Sample[], name: string): number | null {
  let total: number | null = null;
  for (const s of samples) if (s.name === name) total = (total ?? 0) + s.value;
  return total;
}

/** Push health of one istiod from its /metrics text. Never throws. */
export function pushFromMetrics(pod: string, text: string): IstiodPush {
  const lines = text.split('\n').filter((l) => {
    const name = l.startsWith('# ') ? (l.split(' ')[2] ?? '') : l;
    return WANTED.test(name);
  });
  const { samples } = parsePrometheusText(lines.join('\n') + '\n');
  const pushes: Record<string, number> = {};
  for (const s of samples) {
    if (s.name !== 'pilot_xds_pushes') continue;
    const type = s.labels.type ?? 'all';
    pushes[type] = (pushes[type] ?? 0) + s.value;
  }
  const h = readHistogram(samples, 'pilot_proxy_convergence_time');
  const count = h?.count ?? h?.buckets.at(-1)?.count ?? null;
  const size = {
    sum: firstValue(samples, 'pilot_xds_config_size_bytes_sum'),
    count: firstValue(samples, 'pilot_xds_config_size_bytes_count'),
  };
  return {
    pod,
    reachable: true,
    error: null,
    connectedProxies: firstValue(samples, 'pilot_xds'),
    services: firstValue(samples, 'pilot_services'),
    pushes,
    convergence:
      h && count !== null
        ? {
            count,
            mean: h.sum !== null && count > 0 ? h.sum / count : null,
            p50: histogramQuantile(0.5, h.buckets),
            p99: histogramQuantile(0.99, h.buckets),
          }
        : null,
    configSizeMeanBytes:
      size.sum !== null && size.count !== null && size.count > 0 ? size.sum / size.count : null,
  };
}

/** GET /metrics of one istiod through pods/proxy (the monitoring endpoint needs no auth). */
export async function readIstiodPush(
  t: KubeTransport,
  pod: Pod,
  timeoutMs: number,
): Promise<IstiodPush> {
  const name = pod.metadata.name;
  try {
    const res = await podProxyGet(
      t,
      pod.metadata.namespace ?? 'istio-system',
      name,
      ISTIOD_MONITORING_PORT,
      '/metrics',
      {
        timeoutMs,
        maxBytes: 32 * 1024 * 1024,
      },
    );
    return pushFromMetrics(name, res.body);
  } catch (e) {
    return {
      pod: name,
      reachable: false,
      error: failureReason(e),
      connectedProxies: null,
      services: null,
      pushes: {},
      convergence: null,
      configSizeMeanBytes: null,
    };
  }
}
