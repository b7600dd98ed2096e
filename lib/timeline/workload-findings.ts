/**
 * The Timelines fleet as findings: one per workload and startup/shutdown verdict that needs
 * action (not the *-ok ones), with the workload's first fix, and the hold counts that decide
 * whether the mesh-wide hold is the fix that reaches most of them. Findings and Timelines both
 * group these with lib/findings/group.ts, so they show the same groups and counts.
 */
import type { TimelineFleet } from '../api/timelines';
import type { GroupContext } from '../findings/group';
import type { Finding } from '../findings/types';
import { timelineCatalog } from './codes';
import { workloadKey } from '../refs/workload-ref';

const TIMELINE_SEVERITY: ReadonlyMap<string, Finding['severity']> = new Map(
  timelineCatalog().map((c) => [c.code, c.severity]),
);

export function workloadTimelineFindings(fleet: TimelineFleet): Finding[] {
  const verdicts: Finding[] = fleet.fixes
    .filter((w) => !w.verdict.endsWith('-ok'))
    .map((w) => ({
      code: w.code,
      severity: TIMELINE_SEVERITY.get(w.code) ?? 'warning',
      subject: { kind: w.kind, namespace: w.namespace, name: w.name },
      evidence: {
        verdict: w.verdict,
        pods: w.pods,
        examplePod: w.example,
        // the failing requests recorded against their terminations: harm seen when above 0
        ...(typeof w.failedRequests === 'number' ? { failedRequests: w.failedRequests } : {}),
      },
      fix: w.fixes[0],
    }));
  // workloads whose next restart gets the other sidecar mode (node versions, istiod's setting)
  const flips: Finding[] = (fleet.modes ?? [])
    .filter((m) => m.flips && m.code !== null)
    .map((m) => ({
      code: m.code as string,
      severity: TIMELINE_SEVERITY.get(m.code as string) ?? 'warning',
      subject: { kind: m.kind, namespace: m.namespace, name: m.name },
      evidence: { now: m.now, next: m.next, pods: m.pods, why: m.why },
      fix: m.fixes[0],
    }));
  return [...verdicts, ...flips];
}

/**
 * Meshed workloads, and how many already start their app after the proxy (hold, native
 * sidecar or a wrapper on every pod).
 */
export function holdCounts(
  fleet: TimelineFleet,
): Required<Pick<GroupContext, 'meshedWorkloads' | 'heldWorkloads'>> {
  const modes = new Map<string, Set<string>>();
  for (const r of fleet.rows) {
    if (r.mode === 'none' || r.mode === 'ambient' || r.mode === 'gateway' || r.deleted) continue;
    const key = workloadKey({ namespace: r.namespace, kind: r.workloadKind, name: r.workload });
    const set = modes.get(key) ?? new Set<string>();
    set.add(r.mode);
    modes.set(key, set);
  }
  let held = 0;
  for (const set of modes.values()) if (!set.has('classic')) held++;
  return { meshedWorkloads: modes.size, heldWorkloads: held };
}
