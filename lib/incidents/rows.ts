import { groupByUpstreamPod } from '../ledger/aggregate';
import { endOf } from '../ledger/lookup';
import type { PodInterval } from '../ledger/types';
import type { RequestRow, UpstreamPodRow } from '../api/incidents';
import type { AttributedRequest } from './collect';
import { podIdKey } from '../refs/pod-ref';
import { workloadNameKey, workloadOfOwner } from '../refs/workload-ref';

export const serviceName = (a: AttributedRequest): string | null =>
  a.service?.fqdn ?? a.service?.name ?? null;

/** Failing requests grouped by the pod that held the upstream IP, with its end of life. */
export function upstreamPodRows(
  requests: readonly AttributedRequest[],
  intervalOf: (podKey: string) => PodInterval | null,
): UpstreamPodRow[] {
  const extra = new Map<string, { services: Set<string>; clients: Set<string> }>();
  for (const a of requests) {
    const key = a.pod ? podIdKey(a.pod) : '';
    const e = extra.get(key) ?? { services: new Set<string>(), clients: new Set<string>() };
    const svc = serviceName(a);
    if (svc) e.services.add(svc);
    if (a.clientName) e.clients.add(a.clientName);
    extra.set(key, e);
  }
  return groupByUpstreamPod(requests).map((g) => {
    const key = g.pod ? podIdKey(g.pod) : '';
    const i = g.pod ? intervalOf(key) : null;
    const end = i ? endOf(i) : null;
    const e = extra.get(key);
    return {
      pod: g.pod,
      owner: g.owner,
      node: i?.node ?? null,
      state: g.state,
      count: g.count,
      byState: g.byState,
      byFlag: g.byFlag,
      byCode: g.byCode,
      upstreamIps: g.upstreamIps,
      firstTime: g.firstTime,
      lastTime: g.lastTime,
      maxAfterTerminationMs: g.maxAfterTerminationMs,
      deletionStartedAt: i?.deletionStartedAt != null ? iso(i.deletionStartedAt) : null,
      goneAt: end !== null ? iso(end) : null,
      services: [...(e?.services ?? [])].sort(),
      clients: [...(e?.clients ?? [])].sort(),
    };
  });
}

/** The request table: newest first is not wanted for a story; time order, capped. */
export function requestRows(requests: readonly AttributedRequest[], max: number): RequestRow[] {
  return requests.slice(0, max).map((a) => ({
    source: a.source,
    line: a.line,
    time: a.time,
    code: a.code,
    flags: a.flags,
    upstream: a.upstream,
    upstreamIp: a.upstreamIp,
    pod: a.pod,
    owner: a.owner,
    state: a.state,
    afterTerminationMs: a.afterTerminationMs,
    reason: a.reason,
    client: a.clientName,
    service: serviceName(a),
  }));
}

/** Each pod of the given workloads with its span [start, end], by pod (uid, else ns/name). */
function podSpans(
  intervals: Iterable<PodInterval>,
  workloads: ReadonlySet<string>,
  span: (i: PodInterval) => [number, number] | null,
): Map<string, [number, number]> {
  const spans = new Map<string, [number, number]>();
  for (const i of intervals) {
    if (!i.owner || !workloads.has(workloadNameKey(i.namespace, workloadOfOwner(i.owner, i).name)))
      continue;
    const next = span(i);
    if (!next) continue;
    const key = podIdKey(i);
    const s = spans.get(key);
    spans.set(key, s ? [Math.min(s[0], next[0]), Math.max(s[1], next[1])] : next);
  }
  return spans;
}

/** Most spans open at once within [fromMs, toMs] (a span ending at t is closed before t). */
function peakOverlap(spans: Iterable<[number, number]>, fromMs: number, toMs: number): number {
  const edges: [number, number][] = [];
  for (const [start, end] of spans) {
    if (end < fromMs || start > toMs) continue;
    edges.push([Math.max(start, fromMs), 1], [Math.max(Math.min(end, toMs + 1), start + 1), -1]);
  }
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let cur = 0;
  let max = 0;
  for (const [, d] of edges) {
    cur += d;
    max = Math.max(max, cur);
  }
  return max;
}

/** Most pods of the given workloads terminating at the same time within [fromMs, toMs]. */
export function maxConcurrentTerminations(
  intervals: Iterable<PodInterval>,
  workloads: ReadonlySet<string>,
  fromMs: number,
  toMs: number,
): number {
  const spans = podSpans(intervals, workloads, (i) =>
    i.deletionStartedAt === null
      ? null
      : [i.deletionStartedAt, endOf(i) ?? i.graceEndsAt ?? i.deletionStartedAt],
  );
  return peakOverlap(spans.values(), fromMs, toMs);
}

/**
 * Most pods of the given workloads that held an IP at the same time within [fromMs, toMs]: the
 * replica count while the failures happened (a scale-down leaves fewer endpoints afterwards).
 */
export function peakHolders(
  intervals: Iterable<PodInterval>,
  workloads: ReadonlySet<string>,
  fromMs: number,
  toMs: number,
): number {
  const spans = podSpans(intervals, workloads, (i) => [i.from, endOf(i) ?? Infinity]);
  return peakOverlap(spans.values(), fromMs, toMs);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
