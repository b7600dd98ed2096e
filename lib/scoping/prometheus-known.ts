/**
 * What Scoping's gather learns from Prometheus instead of reading proxies: which workloads it
 * knows fully, which of those called nothing, and the service/inbound split the unsampled
 * replicas share with their workload's sample. Pure.
 */
import { podKey } from '../refs/pod-ref';
import {
  parseWorkloadKey,
  workloadKey as workloadKeyOf,
  workloadNameKey,
  workloadOf,
} from '../refs/workload-ref';
import type { Pod } from '../kube/types';
import type { ProxyClusterCount, TrafficObservation } from './types';
import type { ScrapeOutcome } from '../proxies/types';
import type { ScopingTarget } from './targets';

/** One proxy's answer in the gather. */
export interface ProxyAnswer {
  count: ProxyClusterCount;
  /** Where the active count came from (null: no count). */
  countFrom: 'prometheus' | 'scrape' | null;
  /** The usage reads (Envoy /stats, access log) were made for this proxy. */
  sampled: boolean;
  observations: TrafficObservation[];
  startMs: number | null;
  unreachable: string | null;
}

/**
 * Workloads (`namespace/kind/name`) Prometheus knows fully: every running proxy has a fresh
 * count and its istio_build series (Istio's own metrics are kept for it).
 */
export function workloadsKnownFromPrometheus(
  targets: readonly ScopingTarget[],
  workloadKey: ReadonlyMap<string, string>,
  outcome: (tg: ScopingTarget) => ScrapeOutcome,
): Set<string> {
  const verdict = new Map<string, boolean>();
  for (const tg of targets) {
    if (tg.notRunning !== null) continue;
    const pk = podKey(tg.namespace, tg.pod);
    const wk = workloadKey.get(pk) ?? pk;
    if (verdict.get(wk) === false) continue;
    const o = outcome(tg);
    verdict.set(wk, o.ok && o.stats.istioVersion !== null);
  }
  return new Set([...verdict].filter(([, ok]) => ok).map(([wk]) => wk));
}

/**
 * Known workloads without any request series over the window: observed by Prometheus, calling
 * nothing (an available observation without hits, not a missing one).
 */
export function silentWorkloads(
  known: ReadonlySet<string>,
  seen: readonly TrafficObservation[],
): TrafficObservation[] {
  const called = new Set(seen.map((o) => workloadNameKey(o.namespace, o.workload ?? '')));
  const out: TrafficObservation[] = [];
  for (const wk of known) {
    const { namespace, name } = parseWorkloadKey(wk);
    if (called.has(workloadNameKey(namespace, name))) continue;
    out.push({ source: 'prometheus', namespace, workload: name, available: true, hits: [] });
  }
  return out;
}

/** `namespace/pod` -> `namespace/kind/workload`. */
export function workloadKeys(pods: readonly Pod[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of pods) {
    const ns = p.metadata.namespace ?? 'default';
    const w = workloadOf(p);
    out.set(podKey(ns, p.metadata.name), workloadKeyOf({ ...w, namespace: ns }));
  }
  return out;
}

/**
 * Replicas that were not sampled take their workload's sampled service/inbound split when their
 * active count (from Prometheus) equals the sample's: same count, same config. Others keep an
 * unknown split (the analysis then models it).
 */
export function shareSampledSplit(
  answers: ProxyAnswer[],
  targets: readonly { namespace: string; pod: string }[],
  workloadKey: ReadonlyMap<string, string>,
): void {
  const key = (i: number) => {
    const tg = targets[i];
    return tg ? (workloadKey.get(podKey(tg.namespace, tg.pod)) ?? '') : '';
  };
  const samples = new Map<string, ProxyClusterCount>();
  answers.forEach((a, i) => {
    if (a.sampled && a.count.active !== null && a.count.service !== null)
      samples.set(key(i), a.count);
  });
  answers.forEach((a, i) => {
    if (a.sampled || a.countFrom !== 'prometheus') return;
    const s = samples.get(key(i));
    if (!s || s.active !== a.count.active) return;
    a.count = {
      ...a.count,
      service: s.service,
      ...(s.inbound !== undefined ? { inbound: s.inbound } : {}),
    };
  });
}
