/**
 * Pod IP history from kube-state-metrics in Prometheus: `kube_pod_info` (one series per pod and
 * IP while the pod exists), `kube_pod_created` and `kube_pod_deletion_timestamp`. This reaches
 * back before meshdx was installed. Answers are validated (zod); bad series are counted.
 */
import type { PodInterval } from '../../lib/ledger/types';
import type { Series } from '../../lib/metrics/prom-matrix';
import { promGet, type PromClient } from './query';
import { podIdKey } from '../../lib/refs/pod-ref';

/** kube-state-metrics labels: the pod's uid, else namespace/pod. */
const podKey = (m: Record<string, string>) =>
  podIdKey({ namespace: m.namespace ?? '', name: m.pod ?? '', uid: m.uid });

export interface PodInfoHistory {
  intervals: PodInterval[];
  /** kube_pod_info series without namespace, pod or pod_ip (pending pods, hostNetwork...). */
  skipped: number;
}

/**
 * One interval per kube_pod_info series with a pod IP: from its first sample (or creation, if
 * later) to one step after its last sample, unless that reaches the end of the range (still
 * there). Deletion start is the first sample of kube_pod_deletion_timestamp.
 */
export function intervalsFromKsm(
  info: readonly Series[],
  created: readonly Series[],
  deletion: readonly Series[],
  range: { endMs: number; stepMs: number },
): PodInfoHistory {
  const createdAt = new Map<string, number>();
  for (const s of created) {
    const v = s.samples.find(([, x]) => Number.isFinite(x))?.[1];
    if (v !== undefined) createdAt.set(podKey(s.metric), v * 1000);
  }
  const deleted = new Map<string, { startedAt: number; graceEndsAt: number }>();
  for (const s of deletion) {
    const first = s.samples[0];
    if (first && Number.isFinite(first[1]))
      deleted.set(podKey(s.metric), { startedAt: first[0], graceEndsAt: first[1] * 1000 });
  }
  const intervals: PodInterval[] = [];
  let skipped = 0;
  for (const s of info) {
    const m = s.metric;
    const ip = m.pod_ip;
    const first = s.samples[0];
    const last = s.samples[s.samples.length - 1];
    if (!m.namespace || !m.pod || !ip || !first || !last || m.host_network === 'true') {
      skipped++;
      continue;
    }
    const key = podKey(m);
    const gone =
      last[0] + range.stepMs <= range.endMs - range.stepMs ? last[0] + range.stepMs : null;
    const del = deleted.get(key);
    const created = createdAt.get(key);
    intervals.push({
      ip,
      namespace: m.namespace,
      name: m.pod,
      uid: m.uid || null,
      owner:
        m.created_by_kind && m.created_by_name
          ? { kind: m.created_by_kind, name: m.created_by_name }
          : null,
      node: m.node || null,
      from:
        created !== undefined && created > first[0] - range.stepMs
          ? Math.max(created, first[0] - range.stepMs)
          : first[0],
      fromSource: 'event',
      deletionStartedAt: del?.startedAt ?? null,
      graceEndsAt: del?.graceEndsAt ?? null,
      goneAt: gone,
      goneUncertain: gone !== null,
      lastSeenAt: last[0],
    });
  }
  return { intervals, skipped };
}

export interface KsmRange {
  startMs: number;
  endMs: number;
}

/** The default finest step of a pod-history range query: a common kube-state-metrics scrape. */
export const DEFAULT_MIN_STEP_MS = 15_000;

/**
 * Step for a range: at most about 1000 points, a multiple of the finest step (15 s unless
 * MESHDX_PROMETHEUS_STEP says the scrape is finer), never under it.
 */
export function stepFor(r: KsmRange, minStepMs = DEFAULT_MIN_STEP_MS): number {
  return Math.max(minStepMs, Math.ceil((r.endMs - r.startMs) / 1000 / minStepMs) * minStepMs);
}

/** Reads the three series over the range. Never throws: a failure is an error string. */
export async function readKsmIpIntervals(
  baseUrl: string,
  range: KsmRange,
  timeoutMs: number,
  fetchImpl: typeof fetch = fetch,
  minStepMs = DEFAULT_MIN_STEP_MS,
): Promise<PodInfoHistory & { error: string | null }> {
  const stepMs = stepFor(range, minStepMs);
  const client: PromClient = { baseUrl, timeoutMs, fetchImpl };
  const get = (query: string) =>
    promGet(client, 'query_range', {
      query,
      start: String(range.startMs / 1000),
      end: String(range.endMs / 1000),
      step: `${stepMs / 1000}s`,
    });
  const [info, created, deletion] = await Promise.all([
    get('kube_pod_info{pod_ip!=""}'),
    get('kube_pod_created'),
    get('kube_pod_deletion_timestamp'),
  ]);
  if (info.error) return { intervals: [], skipped: 0, error: info.error };
  return {
    ...intervalsFromKsm(info.series, created.series, deletion.series, {
      endMs: range.endMs,
      stepMs,
    }),
    error: created.error ?? deletion.error,
  };
}
