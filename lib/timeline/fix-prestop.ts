/**
 * The preStop sleep an ambient pod needs so that it keeps serving until every ztunnel has
 * removed the workload (istio#58514's workaround), written into the pod template's containers by
 * name: a strategic merge patch, which merges the containers list (a merge patch would replace
 * it). The `sleep` action needs Kubernetes 1.30+ (PodLifecycleSleepAction).
 */
import type { FindingFix } from '../findings/types';
import type { Pod } from '../kube/types';
import { templatePatch, type ToYaml } from './fix';
import type { FixNeeds, Workload } from './types';
import { stringify } from 'yaml';

type Json = Record<string, unknown>;

/** The containers entries of a template patch: one preStop sleep per named container. */
export function preStopSleepContainers(sleeps: Readonly<Record<string, number>>): Json[] {
  return Object.entries(sleeps)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, seconds]) => ({ name, lifecycle: { preStop: { sleep: { seconds } } } }));
}

/** The longest sleep per container over many needs. */
export function mergeSleeps(all: readonly FixNeeds[]): Record<string, number> | undefined {
  let out: Record<string, number> | undefined;
  for (const n of all)
    for (const [c, s] of Object.entries(n.preStopSleepSeconds ?? {})) {
      out ??= {};
      out[c] = Math.max(out[c] ?? 0, s);
    }
  return out;
}

/** The fix of needs that hold a preStop sleep (and the grace period that covers it). */
export function preStopSleepFix(
  pod: Pod,
  w: Workload,
  needs: FixNeeds,
  toYaml: ToYaml = (b) => stringify(b, { lineWidth: 0 }),
): FindingFix {
  const sleeps = needs.preStopSleepSeconds ?? {};
  const spec: Json = { containers: preStopSleepContainers(sleeps) };
  const graceS = pod.spec.terminationGracePeriodSeconds;
  if (needs.graceSeconds !== null) spec.terminationGracePeriodSeconds = needs.graceSeconds;
  const longest = Math.max(0, ...Object.values(sleeps));
  return {
    why: `keep the pod serving ${longest} s after its deletion starts, until the ztunnels have removed the workload (Kubernetes 1.30+ sleep action), with a grace period${graceS === undefined ? '' : ` raised from ${graceS} s`} that covers the sleep`,
    yaml: templatePatch(w, { spec }, toYaml, 'strategic'),
  };
}
