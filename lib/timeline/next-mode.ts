/**
 * The sidecar mode each workload runs now and the one its next pod will get.
 *
 * The injector decides native or classic once per pod, at creation (lib/dataplane/native-sidecar.ts):
 * a running pod keeps its placement, its replacement is decided anew from istiod's
 * ENABLE_NATIVE_SIDECARS, the template's `sidecar.istio.io/nativeSidecar` annotation and, in auto
 * mode, every node's kubelet. A workload "flips" when its live pods run one mode and a pod created
 * now would get the other: the start order, shutdown and Job completion change at the next
 * rollout, eviction or scale-up, without anyone having touched the workload.
 */
import type { InjectionInfo, WorkloadMode } from '../api/timelines';
import {
  decideNative,
  NATIVE_SIDECAR_ANNOTATION,
  type InjectorSetting,
  type NodeVersion,
} from '../dataplane/native-sidecar';
import { podProxy } from '../dataplane/proxy-container';
import type { Pod } from '../kube/types';
import { workloadKey, workloadOf } from '../refs/workload-ref';
import { TIMELINE } from './codes';

export interface InjectionInput {
  setting: InjectorSetting;
  nodes: readonly NodeVersion[];
  /** Why the nodes are not known (no RBAC for nodes, the list failed), null when listed. */
  nodesError: string | null;
}

export function injectionInfo(input: InjectionInput): InjectionInfo {
  const next = decideNative(undefined, input.setting.value, input.nodes);
  return {
    setting: input.setting.value,
    source: input.setting.source,
    notes: input.setting.notes,
    nodes: input.nodes.map((n) => ({ ...n })),
    nodesError: input.nodesError,
    nextNative: next.native,
    why: next.why,
  };
}

function pinFix(
  ns: string,
  kind: string,
  name: string,
  native: boolean,
): { why: string; yaml: string } {
  return {
    why: `pin the mode the workload runs today (${native ? 'native' : 'classic'}) on its pod template, so node upgrades do not change it unannounced; remove it once tested`,
    yaml: `# kubectl -n ${ns} patch ${kind.toLowerCase()} ${name} --type merge -p '...'\nspec:\n  template:\n    metadata:\n      annotations:\n        ${NATIVE_SIDECAR_ANNOTATION}: "${native}"`,
  };
}

/** One row per workload with live sidecar pods, flips first. */
export function workloadModes(livePods: readonly Pod[], input: InjectionInput): WorkloadMode[] {
  const groups = new Map<string, { ns: string; kind: string; name: string; pods: Pod[] }>();
  for (const pod of livePods) {
    const p = podProxy(pod);
    if (!p || (p.placement !== 'sidecar' && p.placement !== 'native-sidecar')) continue;
    if (pod.metadata.deletionTimestamp) continue;
    const w = workloadOf(pod);
    const ns = pod.metadata.namespace ?? 'default';
    const key = workloadKey(w);
    const g = groups.get(key) ?? { ns, kind: w.kind, name: w.name, pods: [] };
    g.pods.push(pod);
    groups.set(key, g);
  }
  const rows: WorkloadMode[] = [];
  for (const g of groups.values()) {
    const native = g.pods.filter((p) => podProxy(p)?.placement === 'native-sidecar').length;
    const classic = g.pods.length - native;
    // the newest pod carries the current template's annotations
    const newest = g.pods.reduce((a, b) =>
      (b.metadata.creationTimestamp ?? '') > (a.metadata.creationTimestamp ?? '') ? b : a,
    );
    const annotation = newest.metadata.annotations?.[NATIVE_SIDECAR_ANNOTATION] ?? null;
    const next = decideNative(newest.metadata.annotations, input.setting.value, input.nodes);
    const flips = next.native ? classic > 0 : native > 0;
    const known =
      input.nodesError === null || input.setting.value !== 'auto' || annotation !== null;
    rows.push({
      namespace: g.ns,
      kind: g.kind,
      name: g.name,
      pods: g.pods.length,
      nativePods: native,
      classicPods: classic,
      now: native === 0 ? 'classic' : classic === 0 ? 'native' : 'mixed',
      next: next.native ? 'native' : 'classic',
      why: known ? next.why : `${next.why} (nodes unknown: ${input.nodesError ?? ''})`,
      pinned: annotation,
      flips: flips && known,
      code: flips && known ? TIMELINE.code['mode-flip'] : null,
      fixes: flips && known ? [pinFix(g.ns, g.kind, g.name, !next.native)] : [],
    });
  }
  return rows.sort(
    (a, b) =>
      Number(b.flips) - Number(a.flips) ||
      a.namespace.localeCompare(b.namespace) ||
      a.name.localeCompare(b.name),
  );
}
