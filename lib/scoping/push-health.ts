/**
 * istiod push health from its monitoring port's /metrics text: how long config changes take to
 * reach proxies (pilot_proxy_convergence_time), how many pushes went out by type
 * (pilot_xds_pushes), connected proxies and pushed config size. The screen reads every replica
 * (server/screens/scoping/push-health.ts).
 */
import type { IstiodPush } from '../api/scoping-view';
import { histogramQuantile, readHistogram } from '../metrics/histogram';
import { parsePrometheusText } from '../metrics/prometheus';
import type { Sample } from '../metrics/types';

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
