import { intervalTableOf } from '../../../lib/ledger/ledger-table';
import { DEFAULT_GAP_TOLERANCE_MS } from '../../../lib/ledger/lookup';
import { mergeIntervals } from '../../prometheus/merged-intervals';
import { readKsmIpIntervals } from '../../prometheus/pod-info';
import type { ViewState } from '../../../lib/api/viewstate';
import type { IpHistorySource } from './ip-history';

type IncidentsQuery = ViewState<'incidents'>;

const HOUR = 3_600_000;
/**
 * How far before the window pod history is read: a pod deleted up to this long before the
 * window can still be blamed for its requests (twice the ledger's gap tolerance).
 */
const LEAD_MS = 2 * DEFAULT_GAP_TOLERANCE_MS;

/**
 * The history source plus kube-state-metrics pod history from Prometheus over the incident
 * window (an hour before it, so pods that started earlier are known). Never fails: a Prometheus
 * problem becomes a note.
 */
export interface PrometheusSettings {
  baseUrl: string;
  timeoutMs: number;
  /** Finest step of the range queries (ms); see stepFor. */
  minStepMs?: number;
}

export async function withPrometheus(
  source: IpHistorySource,
  prom: PrometheusSettings,
  q: IncidentsQuery,
  now: number,
): Promise<IpHistorySource> {
  await source.ready.catch(() => undefined);
  const endMs = q.to ? Date.parse(q.to) : now;
  const startMs = (q.from ? Date.parse(q.from) : endMs - 6 * HOUR) - LEAD_MS;
  const ksm = await readKsmIpIntervals(
    prom.baseUrl,
    { startMs, endMs },
    prom.timeoutMs,
    fetch,
    prom.minStepMs,
  );
  const own = source.load().intervals();
  const merged = mergeIntervals(own, ksm.intervals);
  const added = merged.length - own.length;
  const history = intervalTableOf(merged);
  const base = source.info();
  const note = ksm.error
    ? `Prometheus kube_pod_info not used: ${ksm.error}`
    : `Prometheus kube_pod_info added ${added} intervals (${ksm.skipped} series without IP skipped).`;
  return {
    ready: Promise.resolve(),
    load: () => history,
    info: () => ({
      source: `${base.source} + Prometheus`,
      note: [base.note, note].filter(Boolean).join(' '),
    }),
  };
}

/** The Prometheus settings of the environment, or null when no Prometheus is configured. */
export function prometheusSettings(e: {
  MESHDX_PROMETHEUS?: string;
  MESHDX_PROMETHEUS_STEP?: number;
}): PrometheusSettings | null {
  if (!e.MESHDX_PROMETHEUS) return null;
  return {
    baseUrl: e.MESHDX_PROMETHEUS,
    timeoutMs: 10_000,
    minStepMs: e.MESHDX_PROMETHEUS_STEP === undefined ? undefined : e.MESHDX_PROMETHEUS_STEP * 1000,
  };
}

/** The history source, with Prometheus' pod history merged in when one is configured. */
export async function historyWithPrometheus(
  source: IpHistorySource,
  e: { MESHDX_PROMETHEUS?: string; MESHDX_PROMETHEUS_STEP?: number },
  q: IncidentsQuery,
  now: number,
): Promise<IpHistorySource> {
  const prom = prometheusSettings(e);
  return prom ? withPrometheus(source, prom, q, now) : source;
}
