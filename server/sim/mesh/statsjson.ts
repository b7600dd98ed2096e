/**
 * Envoy admin `/stats?format=json` as Envoy renders it in its default histogram mode:
 * `{"stats":[{"name","value"}..., {"histograms":{"supported_quantiles":[...],
 * "computed_quantiles":[{"name","values":[{"cumulative","interval"}...]}]}}]}`. Counters and
 * gauges come sorted by name; the histograms entry is last and only there when a histogram is
 * selected. A quantile with no recorded value (NaN in Envoy) is `null`.
 */
import type { ProxyContext } from './proxy';
import { selectStats } from './stats';
import type { HistogramStat } from './stat-entry';

/** Envoy's supported quantiles, as percentages. */
export const SUPPORTED_QUANTILES = [0, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 100];

export interface EnvoyStatsJson {
  stats: (
    | { name: string; value: number }
    | {
        histograms: {
          supported_quantiles: number[];
          computed_quantiles: {
            name: string;
            values: { cumulative: number | null; interval: number | null }[];
          }[];
        };
      }
  )[];
}

/**
 * One histogram's quantiles. The simulated ones hold a single value recorded at start-up (the
 * init time), so every cumulative quantile is that value; the interval (the last flush period)
 * has recorded nothing, so it is null, as in the text form's `P50(nan,v)`.
 */
function computed(h: HistogramStat) {
  const v = h.values.length > 0 ? (h.values[0] ?? null) : null;
  return {
    name: h.name,
    values: SUPPORTED_QUANTILES.map(() => ({ cumulative: v, interval: null })),
  };
}

/** GET /stats?format=json with `filter` and `usedonly` applied as for the text form. */
export function statsJson(
  ctx: ProxyContext,
  query: URLSearchParams,
): { status: 200; body: EnvoyStatsJson } | { status: 400; body: string } {
  const sel = selectStats(ctx, query);
  if ('error' in sel) return { status: 400, body: sel.error };
  const out: EnvoyStatsJson = { stats: sel.stats.map((s) => ({ name: s.name, value: s.value })) };
  if (sel.histograms.length > 0) {
    out.stats.push({
      histograms: {
        supported_quantiles: SUPPORTED_QUANTILES,
        computed_quantiles: sel.histograms.map(computed),
      },
    });
  }
  return { status: 200, body: out };
}
