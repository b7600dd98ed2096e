/**
 * The sidecar workloads of the mesh: meshed, non-gateway pods grouped by owner (Deployment,
 * StatefulSet, ...), and a workloadSelector that picks exactly one workload's pods.
 */
import { workloadNameKey, workloadOf } from '../refs/workload-ref';
import type { Pod } from '../kube/types';
import { podProxy, sidecarScopes } from '../dataplane/proxy-container';
import { labelsMatch } from './visibility';

export interface SidecarWorkload {
  key: string;
  namespace: string;
  name: string;
  kind: string;
  pods: Pod[];
  /** Labels every pod of the workload carries with the same value. */
  commonLabels: Record<string, string>;
}

/** Pods whose proxy a Sidecar can scope: has istio-proxy, is not a gateway, not finished. */
export function isScopablePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const proxy = podProxy(pod);
  return proxy !== null && sidecarScopes(proxy.placement);
}

function commonLabelsOf(pods: readonly Pod[]): Record<string, string> {
  const [first, ...rest] = pods;
  const out: Record<string, string> = { ...(first?.metadata.labels ?? {}) };
  for (const p of rest) {
    for (const [k, v] of Object.entries(out)) if (p.metadata.labels?.[k] !== v) delete out[k];
  }
  return out;
}

/** Sidecar-scopable pods grouped into workloads, sorted by namespace then name. */
export function sidecarWorkloads(pods: readonly Pod[]): SidecarWorkload[] {
  const byKey = new Map<string, SidecarWorkload>();
  for (const pod of pods) {
    if (!isScopablePod(pod)) continue;
    const ns = pod.metadata.namespace ?? 'default';
    const ref = workloadOf(pod);
    const key = workloadNameKey(ns, ref.name);
    const w = byKey.get(key);
    if (w) w.pods.push(pod);
    else
      byKey.set(key, {
        key,
        namespace: ns,
        name: ref.name,
        kind: ref.kind,
        pods: [pod],
        commonLabels: {},
      });
  }
  const out = [...byKey.values()];
  for (const w of out) {
    w.pods.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    w.commonLabels = commonLabelsOf(w.pods);
  }
  return out.sort((a, b) => a.key.localeCompare(b.key));
}

/** Labels that change per pod or per rollout: never part of a generated selector. */
const VOLATILE: ReadonlySet<string> = new Set([
  'pod-template-hash',
  'controller-revision-hash',
  'statefulset.kubernetes.io/pod-name',
  'apps.kubernetes.io/pod-index',
  'pod-template-generation',
  'security.istio.io/tlsMode',
  'service.istio.io/canonical-revision',
]);

const CANDIDATES: readonly (readonly string[])[] = [
  ['app'],
  ['app', 'version'],
  ['app.kubernetes.io/name'],
  ['app.kubernetes.io/name', 'app.kubernetes.io/instance'],
  ['app.kubernetes.io/instance'],
  ['k8s-app'],
  ['service.istio.io/canonical-name'],
];

/**
 * The smallest usual label set (app, app+version, app.kubernetes.io/name, ...) that selects every
 * pod of the workload and no other pod of its namespace; else all its stable common labels if
 * those do; else null (no safe selector).
 */
export function uniqueSelector(
  workload: SidecarWorkload,
  namespacePods: readonly Pod[],
): Record<string, string> | null {
  const mine = new Set(workload.pods.map((p) => p.metadata.name));
  const others = namespacePods.filter((p) => !mine.has(p.metadata.name));
  const stable = Object.fromEntries(
    Object.entries(workload.commonLabels).filter(([k]) => !VOLATILE.has(k)),
  );
  const tries: Record<string, string>[] = [];
  for (const keys of CANDIDATES) {
    if (keys.every((k) => stable[k] !== undefined)) {
      tries.push(Object.fromEntries(keys.map((k) => [k, stable[k] as string])));
    }
  }
  if (Object.keys(stable).length > 0) tries.push(stable);
  for (const sel of tries) {
    if (!others.some((p) => labelsMatch(sel, p.metadata.labels))) return sel;
  }
  return null;
}
