import type { Attribution, AttributedPod } from './attribution';
import type { HolderState } from './types';
import { podIdKey } from '../refs/pod-ref';

export interface UpstreamPodGroup {
  /** null: requests whose upstream could not be tied to a pod. */
  pod: AttributedPod | null;
  owner: { kind: string; name: string } | null;
  /** Worst state seen for this pod (terminated > terminating > live > unknown). */
  state: HolderState;
  count: number;
  byState: Partial<Record<HolderState, number>>;
  byFlag: Record<string, number>;
  byCode: Record<string, number>;
  upstreamIps: string[];
  firstTime: string | null;
  lastTime: string | null;
  /** Largest afterTerminationMs among its requests. */
  maxAfterTerminationMs: number | null;
}

const STATE_RANK: Record<HolderState, number> = {
  unknown: 0,
  live: 1,
  terminating: 2,
  terminated: 3,
};

/** Failing requests grouped by the pod that received them, most requests first. */
export function groupByUpstreamPod(attributions: Iterable<Attribution>): UpstreamPodGroup[] {
  const grouper = createUpstreamPodGrouper();
  for (const a of attributions) grouper.add(a);
  return grouper.groups();
}

export interface UpstreamPodGrouper {
  add(a: Attribution): void;
  /** The groups so far, most requests first. */
  groups(): UpstreamPodGroup[];
}

/** groupByUpstreamPod one attribution at a time: keeps the groups, not the attributions. */
export function createUpstreamPodGrouper(): UpstreamPodGrouper {
  const groups = new Map<string, UpstreamPodGroup>();
  function add(a: Attribution): void {
    const key = a.pod ? podIdKey(a.pod) : '';
    let g = groups.get(key);
    if (!g) {
      g = {
        pod: a.pod,
        owner: a.owner,
        state: a.state,
        count: 0,
        byState: {},
        byFlag: {},
        byCode: {},
        upstreamIps: [],
        firstTime: null,
        lastTime: null,
        maxAfterTerminationMs: null,
      };
      groups.set(key, g);
    }
    g.count++;
    g.byState[a.state] = (g.byState[a.state] ?? 0) + 1;
    if (STATE_RANK[a.state] > STATE_RANK[g.state]) g.state = a.state;
    const flags = a.flags.length ? a.flags : ['-'];
    for (const f of flags) g.byFlag[f] = (g.byFlag[f] ?? 0) + 1;
    const code = a.code === null ? '-' : String(a.code);
    g.byCode[code] = (g.byCode[code] ?? 0) + 1;
    if (a.upstreamIp && !g.upstreamIps.includes(a.upstreamIp) && g.upstreamIps.length < 20)
      g.upstreamIps.push(a.upstreamIp);
    if (a.time !== null) {
      if (g.firstTime === null || a.time < g.firstTime) g.firstTime = a.time;
      if (g.lastTime === null || a.time > g.lastTime) g.lastTime = a.time;
    }
    if (a.afterTerminationMs !== null)
      g.maxAfterTerminationMs = Math.max(
        g.maxAfterTerminationMs ?? -Infinity,
        a.afterTerminationMs,
      );
  }
  return {
    add,
    groups: () =>
      [...groups.values()].sort(
        (x, y) => y.count - x.count || STATE_RANK[y.state] - STATE_RANK[x.state],
      ),
  };
}

export interface ServiceCount {
  /** FQDN from the cluster name, or the raw cluster name, or "-" when the line had none. */
  service: string;
  port: number | null;
  subset: string | null;
  count: number;
  byState: Partial<Record<HolderState, number>>;
}

/** Failing requests per destination service (from the upstream cluster name). */
export function countByService(attributions: Iterable<Attribution>): ServiceCount[] {
  const out = new Map<string, ServiceCount>();
  for (const a of attributions) {
    const service = a.service?.fqdn ?? a.service?.name ?? '-';
    const port = a.service?.port ?? null;
    const subset = a.service?.subset ?? null;
    const key = `${service}|${port ?? ''}|${subset ?? ''}`;
    const c = out.get(key) ?? { service, port, subset, count: 0, byState: {} };
    c.count++;
    c.byState[a.state] = (c.byState[a.state] ?? 0) + 1;
    out.set(key, c);
  }
  return [...out.values()].sort((x, y) => y.count - x.count || x.service.localeCompare(y.service));
}
