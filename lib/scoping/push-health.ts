/**
 * istiod push health from its monitoring port's /metrics text: how long config changes take to
 * reach proxies (pilot_proxy_convergence_time), how many pushes went out by type
 * (pilot_xds_pushes), connected proxies and pushed config size. The screen reads every replica
 * (server/screens/scoping/push-health.ts).
 */
import type { IstiodPush } from '../api/scoping-view';
import { histogramQuantile, readHistogram, type HistogramBucket } from '../metrics/histogram';
import {
  check,
  checked,
  COUNT,
  COUNTER,
  DURATION_MS,
  SIZE_BYTES,
  SUM,
  type Implausible,
} from '../plausible/checks';
import { parsePrometheusText } from '../metrics/prometheus';
import type { Sample } from '../metrics/types';

const WANTED =
  /^(pilot_proxy_convergence_time|pilot_xds_pushes|pilot_xds|pilot_services|pilot_xds_config_size_bytes)(_|\{|\s|$)/;

function firstValue(samples: readonly Sample[], name: string): number | null {
  let total: number | null = null;
  for (const s of samples) if (s.name === name) total = (total ?? 0) + s.value;
  return total;
}

/** A convergence time in seconds, checked as the duration it is (at most 30 days). */
function seconds(figure: string, v: number | null, into: Implausible[]): number | null {
  if (v === null) return null;
  const c = check(figure, v * 1000, DURATION_MS);
  if (c.ok) return v;
  into.push({ ...c.implausible, raw: String(v) });
  return null;
}

/**
 * Whether a histogram's buckets can be: cumulative counts are whole, non-negative and never fall
 * as `le` grows. When not, the first bucket that breaks it (its quantiles would be invented).
 */
function badBucket(figure: string, buckets: readonly HistogramBucket[]): Implausible | null {
  let prev = 0;
  for (const b of buckets) {
    const c = check(`${figure}_bucket{le="${b.le}"}`, b.count, COUNTER);
    if (!c.ok) return c.implausible;
    if (b.count < prev)
      return {
        figure: `${figure}_bucket{le="${b.le}"}`,
        raw: String(b.count),
        reason: `a cumulative bucket count never falls (the bucket before it counts ${prev})`,
      };
    prev = b.count;
  }
  return null;
}

/**
 * Push health of one istiod from its /metrics text. Never throws. Every figure is checked
 * (lib/plausible): one that cannot be (a negative count, a histogram whose counts fall) is null
 * and listed in `implausible` with what was read.
 */
export function pushFromMetrics(pod: string, text: string): IstiodPush {
  const lines = text.split('\n').filter((l) => {
    const name = l.startsWith('# ') ? (l.split(' ')[2] ?? '') : l;
    return WANTED.test(name);
  });
  const { samples } = parsePrometheusText(lines.join('\n') + '\n');
  const implausible: Implausible[] = [];
  const pushes: Record<string, number> = {};
  for (const s of samples) {
    if (s.name !== 'pilot_xds_pushes') continue;
    const type = s.labels.type ?? 'all';
    const c = check(`pilot_xds_pushes{type="${type}"}`, s.value, COUNTER);
    if (!c.ok) {
      implausible.push(c.implausible);
      continue;
    }
    pushes[type] = (pushes[type] ?? 0) + c.value;
  }
  const h = readHistogram(samples, 'pilot_proxy_convergence_time');
  const broken = h ? badBucket('pilot_proxy_convergence_time', h.buckets) : null;
  if (broken) implausible.push(broken);
  const count = checked(
    'pilot_proxy_convergence_time_count',
    h?.count ?? h?.buckets.at(-1)?.count ?? null,
    COUNTER,
    implausible,
  );
  const sum = checked('pilot_proxy_convergence_time_sum', h?.sum ?? null, SUM, implausible);
  const size = {
    sum: checked(
      'pilot_xds_config_size_bytes_sum',
      firstValue(samples, 'pilot_xds_config_size_bytes_sum'),
      SUM,
      implausible,
    ),
    count: checked(
      'pilot_xds_config_size_bytes_count',
      firstValue(samples, 'pilot_xds_config_size_bytes_count'),
      COUNTER,
      implausible,
    ),
  };
  const meanSize =
    size.sum !== null && size.count !== null && size.count > 0 ? size.sum / size.count : null;
  return {
    pod,
    reachable: true,
    error: null,
    connectedProxies: checked('pilot_xds', firstValue(samples, 'pilot_xds'), COUNT, implausible),
    services: checked('pilot_services', firstValue(samples, 'pilot_services'), COUNT, implausible),
    pushes,
    convergence:
      h && count !== null && !broken
        ? {
            count,
            mean:
              sum !== null && count > 0
                ? seconds('pilot_proxy_convergence_time mean', sum / count, implausible)
                : null,
            p50: seconds(
              'pilot_proxy_convergence_time p50',
              histogramQuantile(0.5, h.buckets),
              implausible,
            ),
            p99: seconds(
              'pilot_proxy_convergence_time p99',
              histogramQuantile(0.99, h.buckets),
              implausible,
            ),
          }
        : null,
    configSizeMeanBytes: checked(
      'pilot_xds_config_size_bytes mean',
      meanSize,
      SIZE_BYTES,
      implausible,
    ),
    implausible,
  };
}
