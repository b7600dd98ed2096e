import { IntervalHistory, mergeIntervals } from '../prometheus/merged-history';
import { readKsmPodHistory } from '../prometheus/pod-info';
import type { IntervalSource } from './incidents-history';
import type { IncidentsQuery } from './incidents';

const HOUR = 3_600_000;

/**
 * The history source plus kube-state-metrics pod history from Prometheus over the incident
 * window (an hour before it, so pods that started earlier are known). Never fails: a Prometheus
 * problem becomes a note.
 */
export async function withPrometheus(
  source: IntervalSource,
  baseUrl: string,
  q: IncidentsQuery,
  now: number,
  timeoutMs: number,
): Promise<IntervalSource> {
  await source.ready.catch(() => undefined);
  const endMs = q.to ? Date.parse(q.to) : now;
  const startMs = (q.from ? Date.parse(q.from) : endMs - 6 * HOUR) - HOUR;
  const ksm = await readKsmPodHistory(baseUrl, { startMs, endMs }, timeoutMs);
  const merged = mergeIntervals(source.intervals(), ksm.intervals);
  const added = merged.length - source.intervals().length;
  const lookup = new IntervalHistory(merged);
  const base = source.info();
  const note = ksm.error
    ? `Prometheus kube_pod_info not used: ${ksm.error}`
    : `Prometheus kube_pod_info added ${added} intervals (${ksm.skipped} series without IP skipped).`;
  return {
    ready: Promise.resolve(),
    lookup: () => lookup,
    intervals: () => merged,
    info: () => ({
      source: `${base.source} + Prometheus`,
      note: [base.note, note].filter(Boolean).join(' '),
    }),
  };
}
