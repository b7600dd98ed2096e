/**
 * Per-pod analysis cached by (pod key, resourceVersion, history revision, mesh config version):
 * a warm fleet request re-analyses only the pods that changed since the last one.
 */
import type { TimelineFleetRow } from '../api/timelines';
import type { Pod } from '../kube/types';
import { analyzePod } from './analyze';
import { memoYaml } from './fix';
import { harmRank, worstSeverity } from './harm';
import type { MeshSettings } from './meshconfig';
import type { DeletedPodRecord, PodHistory } from './pod-history';
import type { TerminationFailures } from '../incidents/pod-failures';
import type { PodTimeline } from './types';
import { podIdKeyOfObject } from '../refs/pod-ref';

/**
 * Envoy's init time scraped from the pod's current proxy run, if known (ms). `goneAt`: when a
 * deleted pod was seen gone (ms), null for a live one: a scrape after that was of a namesake.
 */
export type InitTimeOf = (pod: Pod, goneAt: number | null) => number | undefined;

export interface Analyzed {
  pod: Pod;
  timeline: PodTimeline;
  row: TimelineFleetRow;
}

interface Entry extends Analyzed {
  stamp: string;
}

export function toFleetRow(
  pod: Pod,
  t: PodTimeline,
  deleted: DeletedPodRecord | null,
): TimelineFleetRow {
  const phase = deleted
    ? 'Deleted'
    : pod.metadata.deletionTimestamp
      ? 'Terminating'
      : (pod.status?.phase ?? 'Unknown');
  return {
    namespace: t.namespace,
    name: t.name,
    uid: t.uid,
    workloadKind: t.workload.kind,
    workload: t.workload.name,
    mode: t.mode,
    verdicts: t.verdicts.map((v) => v.verdict),
    codes: t.verdicts.map((v) => v.code),
    severity: worstSeverity({ verdicts: t.verdicts.map((v) => v.verdict), restarts: t.restarts }),
    harm: harmRank({ verdicts: t.verdicts.map((v) => v.verdict), restarts: t.restarts }),
    restarts: t.restarts,
    proxyRestarts: t.proxyRestarts,
    gapMs: t.gapMs,
    proxyReadySource: t.proxyReady.source,
    proxyReadyConfidence: t.proxyReady.confidence,
    excluded: t.excluded,
    phase,
    startedAt: pod.status?.startTime ?? pod.metadata.creationTimestamp ?? null,
    deleted: deleted !== null,
    deletedAt: deleted?.deletedAt ?? null,
    drainStart: t.drainOrder?.drainStart ?? null,
  };
}

/** The failing requests recorded against a pod's termination; null: not measured. */
export type FailuresOf = (pod: Pod, deleted: DeletedPodRecord | null) => TerminationFailures | null;

export class AnalysisCache {
  private entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;
  /** Pods whose analysis failed (an object of an odd shape), left out and counted. */
  unreadable = 0;
  /** Fix YAML written once for the many pods of a workload that get the same fix. */
  private readonly toYaml = memoYaml();

  constructor(private readonly initTimeOf: InitTimeOf = () => undefined) {}

  analyze(
    h: PodHistory,
    pod: Pod,
    mesh: { settings: MeshSettings | undefined; version: number },
    deleted: DeletedPodRecord | null,
    seen?: Set<string>,
    failuresOf?: FailuresOf,
  ): Analyzed {
    const key = podIdKeyOfObject(pod);
    seen?.add(key);
    const goneAt = deleted ? Date.parse(deleted.deletedAt) : null;
    const initMs = this.initTimeOf(pod, goneAt !== null && Number.isFinite(goneAt) ? goneAt : null);
    const failures = failuresOf?.(pod, deleted) ?? null;
    const stamp = `${pod.metadata.resourceVersion ?? ''}|${h.revision(pod)}|${mesh.version}|${deleted ? 'd' : 'l'}|${initMs ?? ''}|${failures ? JSON.stringify(failures) : '-'}`;
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp && hit.pod === pod) {
      this.hits++;
      return hit;
    }
    this.misses++;
    const timeline = analyzePod(pod, {
      ...(mesh.settings ? { mesh: mesh.settings } : {}),
      events: h.eventsFor(pod),
      transitions: h.transitions(pod),
      ...(initMs !== undefined ? { envoyInitMs: { [key]: initMs } } : {}),
      toYaml: this.toYaml,
      terminationFailures: failures,
    });
    const entry: Entry = { pod, timeline, row: toFleetRow(pod, timeline, deleted), stamp };
    this.entries.set(key, entry);
    return entry;
  }

  /** Forgets pods not in `seen` (gone from the history). */
  retain(seen: Set<string>): void {
    for (const k of this.entries.keys()) if (!seen.has(k)) this.entries.delete(k);
  }

  get size(): number {
    return this.entries.size;
  }
}
