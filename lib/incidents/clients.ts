/**
 * Which client proxies' logs Incidents reads. A log read is the expensive part (one pods/log per
 * proxy), so clients are ranked by what their own proxy says first: failing requests in its
 * metrics (`istio_requests_total{reporter="source"}` 5xx or flagged, or Envoy's per-cluster
 * upstream_rq_5xx), then traffic to namespaces where pods were deleted in the window, then
 * deletions in their own namespace. Every client not read is listed with the reason.
 */
import { check, REQUESTS } from '../plausible/checks';
import { parseClusterName } from '../refs/cluster-name';
import type { AdminStat } from '../metrics/admin-stats';
import { clusterCounterTable } from '../metrics/admin-stats';
import type { Sample } from '../metrics/types';

/** What one client proxy's own numbers say (null: not known, e.g. the scrape failed). */
export interface ClientSignal {
  /** Failing outbound requests its metrics count (since the proxy started). */
  failures: number | null;
  /** Namespaces it sent requests to (outbound clusters with traffic). */
  calls: string[];
  /** Why nothing is known, when the proxy could not be read. */
  problem?: string | null;
}

export type ChoiceReason = 'asked' | 'failures' | 'calls-churn' | 'churn' | 'rest';

export interface ClientChoice {
  /** "namespace/pod" */
  pod: string;
  reason: ChoiceReason;
  failures: number | null;
  /** Deletions in the namespaces it calls, or in its own when nothing is known of its calls. */
  churn: number;
  /** One line a human reads: why it was read, or why not. */
  why: string;
}

const isFailing = (code: string | undefined, flags: string | undefined): boolean =>
  (code !== undefined && /^5\d\d$/.test(code)) ||
  (flags !== undefined && flags !== '' && flags !== '-');

/**
 * Failing outbound requests in one proxy's `istio_requests_total` samples (reporter="source":
 * the requests this proxy sent). Null when the proxy exposes no such series at all (the family
 * is absent), which is not the same as zero failures.
 */
export function failuresFromIstioSamples(samples: readonly Sample[]): number | null {
  let seen = false;
  let failing = 0;
  for (const s of samples) {
    if (s.name !== 'istio_requests_total') continue;
    seen = true;
    if (s.labels.reporter !== 'source') continue;
    // a negative or non-finite count is not summed in (lib/plausible: a count never is)
    if (
      isFailing(s.labels.response_code, s.labels.response_flags) &&
      check('', s.value, REQUESTS).ok
    )
      failing += s.value;
  }
  return seen ? failing : null;
}

/**
 * Failures and called namespaces from one proxy's `istio_requests_total` samples: the
 * destination namespace of every reporter="source" series with requests (the label, else the
 * namespace part of destination_service), failures as failuresFromIstioSamples counts them.
 */
export function signalFromIstioSamples(samples: readonly Sample[]): ClientSignal {
  const calls = new Set<string>();
  for (const s of samples) {
    if (s.name !== 'istio_requests_total' || s.labels.reporter !== 'source') continue;
    if (!(s.value > 0)) continue;
    const ns =
      s.labels.destination_service_namespace ||
      (s.labels.destination_service ?? '').split('.')[1] ||
      '';
    if (ns !== '' && ns !== 'unknown') calls.add(ns);
  }
  return { failures: failuresFromIstioSamples(samples), calls: [...calls].sort() };
}

/**
 * Failures and called namespaces from Envoy admin `/stats` per-cluster counters: outbound
 * clusters with upstream_rq_total > 0 are calls; upstream_rq_5xx plus
 * upstream_cx_destroy_remote_with_active_rq are failures (null when the proxy does not keep
 * either counter).
 */
export function signalFromAdminStats(stats: readonly AdminStat[]): ClientSignal {
  const table = clusterCounterTable(stats, [
    'upstream_rq_total',
    'upstream_cx_total',
    'upstream_rq_5xx',
    'upstream_cx_destroy_remote_with_active_rq',
  ]);
  const calls = new Set<string>();
  let failures: number | null = null;
  for (const [cluster, row] of Object.entries(table)) {
    const ref = parseClusterName(cluster);
    if (ref?.direction !== 'outbound' || !ref.fqdn) continue;
    const ns = ref.fqdn.split('.')[1];
    if (ns && ((row.upstream_rq_total ?? 0) > 0 || (row.upstream_cx_total ?? 0) > 0)) calls.add(ns);
    for (const k of ['upstream_rq_5xx', 'upstream_cx_destroy_remote_with_active_rq'] as const) {
      const v = row[k];
      if (v !== undefined) failures = (failures ?? 0) + v;
    }
  }
  return { failures, calls: [...calls].sort() };
}

export interface RankInput {
  /** Meshed client pods that may be read ("namespace/pod"). */
  candidates: readonly string[];
  /** Clients the user asked for: always read first. */
  asked: readonly string[];
  signals: ReadonlyMap<string, ClientSignal>;
  /** Pod deletions per namespace in the window. */
  churn: ReadonlyMap<string, number>;
  max: number;
}

function nsOf(pod: string): string {
  return pod.slice(0, pod.indexOf('/'));
}

/** Ranks the candidates and splits them at `max` into read and skipped, each with its reason. */
export function rankClients(input: RankInput): { chosen: ClientChoice[]; skipped: ClientChoice[] } {
  const asked = new Set(input.asked);
  const choices: ClientChoice[] = [];
  for (const pod of new Set([...input.asked, ...input.candidates])) {
    const sig = input.signals.get(pod);
    const failures = sig?.failures ?? null;
    const calledChurn = (sig?.calls ?? []).reduce((n, ns) => n + (input.churn.get(ns) ?? 0), 0);
    const ownChurn = input.churn.get(nsOf(pod)) ?? 0;
    const churned = (sig?.calls ?? []).filter((ns) => (input.churn.get(ns) ?? 0) > 0);
    let reason: ChoiceReason;
    let why: string;
    if (asked.has(pod)) {
      reason = 'asked';
      why = 'chosen in the Client filter';
    } else if (failures !== null && failures > 0) {
      reason = 'failures';
      why = `${failures} failing requests in its own metrics`;
    } else if (calledChurn > 0) {
      reason = 'calls-churn';
      why = `calls ${churned.join(', ')}, where ${calledChurn} pods were deleted in the window`;
    } else if (ownChurn > 0) {
      reason = 'churn';
      why = `${ownChurn} pods deleted in its namespace in the window`;
    } else {
      reason = 'rest';
      why = sig?.problem
        ? `metrics not read (${sig.problem})`
        : failures === 0
          ? 'no failing requests in its metrics'
          : 'no failures or deletions known for it';
    }
    choices.push({ pod, reason, failures, churn: calledChurn || ownChurn, why });
  }
  const rank: Record<ChoiceReason, number> = {
    asked: 0,
    failures: 1,
    'calls-churn': 2,
    churn: 3,
    rest: 4,
  };
  choices.sort(
    (a, b) =>
      rank[a.reason] - rank[b.reason] ||
      (b.failures ?? 0) - (a.failures ?? 0) ||
      b.churn - a.churn ||
      a.pod.localeCompare(b.pod),
  );
  const max = Math.max(input.max, asked.size);
  return { chosen: choices.slice(0, max), skipped: choices.slice(max) };
}
