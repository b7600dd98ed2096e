/**
 * Builds the Timelines view models from a PodHistory: the fleet (meshed pods, live and
 * deleted) and one pod's timeline with its Gantt. No I/O: the history and mesh config are given.
 */
import type {
  CacheInfo,
  MeshConfigInfo,
  PodTimelineView,
  TimelineFleet,
  WorkloadFix,
} from '../api/timelines';
import { findProxy } from './containers';
import { summarizeFleet } from './fleet';
import { buildGantt } from './gantt';
import type { MeshSettings } from './meshconfig';
import { toIso } from './time';
import type { PodTimeline } from './types';
import { AnalysisCache, type Analyzed, type FailuresOf } from './analysis-cache';
import { injectionInfo, workloadModes, type InjectionInput } from './next-mode';
import type { PodHistory } from './pod-history';
import { podKeyOf } from '../refs/pod-ref';
import { workloadKey } from '../refs/workload-ref';
import { withMergedFix } from './fix-compose';

export interface MeshInput {
  settings: MeshSettings | undefined;
  version: number;
  from: string;
  errors: string[];
}

export function meshInfo(m: MeshInput): MeshConfigInfo {
  return {
    from: m.from,
    holdApplicationUntilProxyStarts: m.settings?.hold ?? null,
    errors: m.errors,
  };
}

/**
 * Whether a pod's timeline is one of the Timelines fleet: pods with a sidecar (classic, native,
 * held, wrapped) and gateways; not pods outside the mesh, nor ambient pods (ztunnel: no sidecar
 * to race).
 */
export function inTimelinesFleet(t: { mode: PodTimeline['mode'] }): boolean {
  return t.mode !== 'none' && t.mode !== 'ambient';
}

/** Pods analysed between two pauses of analyzeHistory. */
export const ANALYSIS_SLICE = 500;

/**
 * Every pod in the history with a proxy, analysed (cached); meshed ones only. A pod without an
 * istio-proxy container (its mode is 'none' or 'ambient', never one of the fleet) is left out
 * before its history is read: at 50,000 pods of which 20,000 are meshed, that is most of them.
 * With `pause`, it is awaited after every ANALYSIS_SLICE pods analysed: a server's first
 * analysis of 50,000 pods takes seconds, and its other requests are answered in between
 * instead of after.
 */
export async function analyzeHistory(
  h: PodHistory,
  mesh: MeshInput,
  cache: AnalysisCache,
  pause?: () => Promise<void>,
  failuresOf?: FailuresOf,
): Promise<Analyzed[]> {
  const seen = new Set<string>();
  const out: Analyzed[] = [];
  let n = 0;
  // one pod the analysis cannot read (a stored object of an odd shape) never breaks the fleet
  const take = async (
    pod: Parameters<AnalysisCache['analyze']>[1],
    d: Parameters<AnalysisCache['analyze']>[3],
  ) => {
    try {
      if (!findProxy(pod)) return;
      out.push(cache.analyze(h, pod, mesh, d, seen, failuresOf));
    } catch {
      cache.unreadable++;
    }
    if (pause && ++n % ANALYSIS_SLICE === 0) await pause();
  };
  // both lists of one instant: a pod deleted while the live ones are analysed is in one only
  const live = h.livePods();
  const deleted = h.deletedPods();
  for (const pod of live) await take(pod, null);
  for (const d of deleted) await take(d.pod, d);
  cache.retain(seen);
  return out.filter((a) => inTimelinesFleet(a.timeline));
}

/** The verdicts that are findings of their workload (with a fix), on Timelines and Findings. */
const FIXABLE: ReadonlySet<string> = new Set([
  'race',
  'race-restart',
  'drain-too-short',
  'grace-exceeded',
  'native-drain-at-deletion',
  'ambient-gone-before-ztunnel',
  'pod-restart',
  'app-crash',
  'init-failed',
  'exit-at-shutdown',
]);

/**
 * One fix per (workload, verdict), the same merged patch for every verdict of one workload: the
 * needs of all its pods' findings in one patch (fix-compose.ts), written on the annotations of
 * its newest live pod (the current template's). The example is the workload's most recent pod
 * with that verdict, a live one first.
 */
export function workloadFixes(items: readonly Analyzed[]): WorkloadFix[] {
  const byWorkload = new Map<string, Analyzed[]>();
  for (const a of items) {
    const k = workloadKey(a.timeline.workload);
    const list = byWorkload.get(k) ?? [];
    list.push(a);
    byWorkload.set(k, list);
  }
  const out: WorkloadFix[] = [];
  for (const list of byWorkload.values()) {
    const base = list.find((a) => !a.row.deleted) ?? (list[0] as Analyzed);
    const owned = list.flatMap((a) =>
      a.timeline.verdicts
        .filter((v) => FIXABLE.has(v.verdict) && v.fixes.length > 0)
        .map((v) => ({ a, v })),
    );
    const merged = withMergedFix(
      base.pod,
      base.timeline.workload,
      owned.map((o) => o.v),
    ).verdicts;
    const groups = new Map<string, WorkloadFix>();
    owned.forEach(({ a, v }, i) => {
      const fixes = (merged[i] as (typeof merged)[number]).fixes;
      const t = a.timeline;
      const g = groups.get(v.verdict);
      const failed = v.evidence.failedRequests;
      const n = typeof failed === 'number' ? failed : null;
      if (g) {
        g.pods++;
        if (n !== null) g.failedRequests = (g.failedRequests ?? 0) + n;
        // prefer a live pod as the example (its annotations are the current template's)
        if (!a.row.deleted && g.example.startsWith('(deleted) ')) {
          g.example = podKeyOf(t);
          g.fixes = fixes;
        }
        return;
      }
      groups.set(v.verdict, {
        namespace: t.workload.namespace,
        kind: t.workload.kind,
        name: t.workload.name,
        verdict: v.verdict,
        code: v.code,
        pods: 1,
        example: `${a.row.deleted ? '(deleted) ' : ''}${podKeyOf(t)}`,
        fixes,
        failedRequests: n,
      });
    });
    out.push(...groups.values());
  }
  return out.sort(
    (a, b) =>
      a.verdict.localeCompare(b.verdict) ||
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name),
  );
}

export function buildTimelineFleet(
  items: readonly Analyzed[],
  mesh: MeshInput,
  cache: CacheInfo,
  now: Date,
  injection: InjectionInput | null = null,
): TimelineFleet {
  const summary = summarizeFleet(items.map((a) => a.timeline));
  return {
    generatedAt: now.toISOString(),
    pods: summary.pods,
    byVerdict: summary.byVerdict,
    byMode: summary.byMode,
    // worst first: the harmful races lead, the benign ones follow
    rows: items
      .map((a) => a.row)
      .sort(
        (a, b) =>
          a.harm - b.harm ||
          (a.gapMs ?? 0) - (b.gapMs ?? 0) ||
          a.namespace.localeCompare(b.namespace) ||
          a.name.localeCompare(b.name),
      ),
    workloads: summary.workloads,
    fixes: workloadFixes(items),
    mesh: meshInfo(mesh),
    cache,
    injection: injection ? injectionInfo(injection) : null,
    modes: injection
      ? workloadModes(
          items.filter((a) => !a.row.deleted).map((a) => a.pod),
          injection,
        )
      : [],
  };
}

function proxyReadyView(t: PodTimeline): PodTimelineView['proxyReady'] {
  const r = t.proxyReady;
  return {
    at: toIso(r.at),
    notBefore: toIso(r.notBefore),
    source: r.source,
    confidence: r.confidence,
    clock: r.clock,
    upperBoundOnly: r.upperBoundOnly,
    notes: r.notes,
  };
}

/**
 * One pod's timeline and Gantt; null when the history has never seen the pod. With a uid, that
 * pod of the name (a deleted one whose namesake now runs); without, the live pod of the name,
 * else the last deleted one.
 */
export function buildPodView(
  h: PodHistory,
  namespace: string,
  name: string,
  mesh: MeshInput,
  cache: AnalysisCache,
  uid: string | null = null,
  failuresOf?: FailuresOf,
): PodTimelineView | null {
  const found = uid === null ? h.findPod(namespace, name) : h.findIncarnation(namespace, name, uid);
  if (!found) return null;
  const { pod, deleted } = found;
  const { timeline: t } = cache.analyze(h, pod, mesh, deleted, undefined, failuresOf);
  const events = h.eventsFor(pod);
  const transitions = h.transitions(pod);
  return {
    namespace: t.namespace,
    name: t.name,
    uid: t.uid,
    workloadKind: t.workload.kind,
    workload: t.workload.name,
    mode: t.mode,
    modeReasons: t.modeReasons,
    excluded: t.excluded,
    deleted: deleted !== null,
    deletedAt: deleted?.deletedAt ?? null,
    deletedUncertain: deleted?.uncertain ?? false,
    proxyReady: proxyReadyView(t),
    appStartedAt: toIso(t.appStartedAt),
    gapMs: t.gapMs,
    restarts: t.restarts,
    verdicts: t.verdicts.map((v) => ({
      verdict: v.verdict,
      code: v.code,
      phase: v.phase,
      confidence: v.confidence,
      evidence: v.evidence,
      fixes: v.fixes,
    })),
    drainOrder: t.drainOrder,
    gantt: buildGantt(pod, t, events, transitions),
    notes: t.notes,
    inputs: { events: events.length, transitions: transitions.length },
  };
}
