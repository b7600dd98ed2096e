/**
 * Whether Istio's injector gives a pod a native sidecar: the one definition of the rule.
 *
 * Field notes (istio/istio pkg/kube/inject, pilot/pkg/features, the injection template):
 * - `ENABLE_NATIVE_SIDECARS` is an env var of istiod (the discovery container of the istiod
 *   Deployment/pods in the istio namespace). Since Istio 1.27 it is a string defaulting to
 *   `auto`: `false` -> never, `true` -> always, `auto` -> decided from the nodes; any other value
 *   is warned about and treated as `false`. Before 1.27 it was a boolean defaulting to false.
 * - The pod annotation `sidecar.istio.io/nativeSidecar` wins over the setting: the template
 *   takes the annotation when it is non-empty, else the setting, and injects natively unless the
 *   result is exactly `false` (so `"true"`, but also any other non-empty value, means native).
 * - `auto` (detectNativeSidecar): kubelet minor >= 33 (native sidecars GA in Kubernetes 1.33,
 *   KEP-753), read from `status.nodeInfo.kubeletVersion` (`v1.33.1`, `v1.32.4-eks-...`,
 *   `v1.28.3+k3s1`). A pod already bound to a node (`spec.nodeName` set at admission) is judged on
 *   that node alone when the injector knows it; otherwise (the usual case: pods are admitted
 *   before scheduling) EVERY node must qualify, an unreadable version disqualifies, and a cluster
 *   without nodes gets no native sidecar. So upgrading the last old node pool silently turns every
 *   pod created afterwards native, and adding one older node turns new pods classic again.
 * - The decision is made once, when the pod is created: a running pod keeps the placement it was
 *   injected with; only its replacement (rollout, eviction, scale-up) is decided anew.
 */
import { firstAndMore } from '../text-list';
import type { Container, Node, Pod } from '../kube/types';
import { podKey } from '../refs/pod-ref';

export const NATIVE_SIDECAR_ANNOTATION = 'sidecar.istio.io/nativeSidecar';
export const NATIVE_SIDECAR_ENV = 'ENABLE_NATIVE_SIDECARS';
/** First kubelet minor on which auto mode injects native sidecars. */
export const NATIVE_MIN_KUBELET_MINOR = 33;

export type NativeSidecarSetting = 'true' | 'false' | 'auto';

export interface InjectorSetting {
  value: NativeSidecarSetting;
  /** Where it came from, for the evidence. */
  source: string;
  notes: string[];
}

export interface NodeVersion {
  name: string;
  kubeletVersion: string | null;
  /** Kubelet minor version, null when unreadable. */
  minor: number | null;
}

export interface NativeDecision {
  native: boolean;
  why: string;
}

/** The minor of a kubelet version (`v1.33.1` -> 33, `v1.28.3+k3s1` -> 28), null when unreadable. */
export function kubeletMinor(version: string | null | undefined): number | null {
  if (typeof version !== 'string') return null;
  const parts = version.trim().replace(/^v/, '').split('.');
  if (parts.length < 2) return null;
  const m = /^\d+/.exec(parts[1] ?? '');
  return m ? Number(m[0]) : null;
}

export function nodeVersions(nodes: readonly Node[]): NodeVersion[] {
  return nodes
    .map((n) => {
      const v = n.status?.nodeInfo?.kubeletVersion ?? null;
      return { name: n.metadata.name, kubeletVersion: v, minor: kubeletMinor(v) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** `1.27.3`, `1.28-dev` ... from an image tag; null when the tag is not a version. */
function imageMinor(image: string | undefined): { major: number; minor: number } | null {
  const tag = image?.split('@')[0]?.split(':').at(-1) ?? '';
  const m = /^v?(\d+)\.(\d+)/.exec(tag);
  return m ? { major: Number(m[1]), minor: Number(m[2]) } : null;
}

/**
 * The injector's setting from istiod's pods (their discovery container's env). Several revisions
 * may disagree: the first pod that sets it decides and the rest are noted.
 */
export function injectorSetting(istiodPods: readonly Pod[]): InjectorSetting {
  const notes: string[] = [];
  let found: InjectorSetting | null = null;
  let version: { major: number; minor: number } | null = null;
  for (const pod of istiodPods) {
    const containers: Container[] = Array.isArray(pod.spec?.containers) ? pod.spec.containers : [];
    const c = containers.find((x) => x.name === 'discovery') ?? containers[0];
    version ??= imageMinor(c?.image);
    const env = (c?.env ?? []).find((e) => e.name === NATIVE_SIDECAR_ENV);
    if (env?.value === undefined) continue;
    const raw = env.value.trim().toLowerCase();
    const value: NativeSidecarSetting = raw === 'true' || raw === 'auto' ? raw : 'false';
    const src = `${NATIVE_SIDECAR_ENV}=${env.value} on ${podKey(pod.metadata.namespace ?? '', pod.metadata.name)}`;
    if (raw !== value) notes.push(`${src}: not false/true/auto, istiod treats it as false`);
    if (!found) found = { value, source: src, notes };
    else if (found.value !== value) notes.push(`${src} disagrees with ${found.source}`);
  }
  if (found) return found;
  if (istiodPods.length === 0) {
    return {
      value: 'auto',
      source: 'no istiod pod found: assumed the 1.27+ default (auto)',
      notes,
    };
  }
  if (version && (version.major > 1 || version.minor >= 27)) {
    return {
      value: 'auto',
      source: `not set on istiod ${version.major}.${version.minor}: default auto`,
      notes,
    };
  }
  if (version) {
    return {
      value: 'false',
      source: `not set on istiod ${version.major}.${version.minor}: default false before 1.27`,
      notes,
    };
  }
  return {
    value: 'auto',
    source: 'not set, istiod version unknown: assumed the 1.27+ default (auto)',
    notes,
  };
}

function describeOld(old: readonly NodeVersion[]): string {
  return firstAndMore(
    old.map((n) => `${n.name} (${n.kubeletVersion ?? 'unknown kubelet'})`),
    3,
  );
}

/** The auto-mode rule on the nodes (a pod bound to a known node: that node only). */
export function autoDecision(
  nodes: readonly NodeVersion[],
  boundTo?: string | null,
): NativeDecision {
  const ok = (n: NodeVersion) => n.minor !== null && n.minor >= NATIVE_MIN_KUBELET_MINOR;
  if (boundTo) {
    const n = nodes.find((x) => x.name === boundTo);
    if (n) {
      return ok(n)
        ? { native: true, why: `auto: bound to ${n.name}, kubelet ${n.kubeletVersion} >= 1.33` }
        : { native: false, why: `auto: bound to ${describeOld([n])}, below 1.33` };
    }
  }
  if (nodes.length === 0)
    return { native: false, why: 'auto: no nodes visible, the injector says classic' };
  const old = nodes.filter((n) => !ok(n));
  if (old.length > 0) {
    return {
      native: false,
      why: `auto: ${old.length} of ${nodes.length} nodes below kubelet 1.33: ${describeOld(old)}`,
    };
  }
  return { native: true, why: `auto: all ${nodes.length} nodes run kubelet >= 1.33` };
}

/**
 * What the injector decides for a pod created now with these annotations (the workload's
 * template): the annotation wins, then the setting, then (auto) the nodes.
 */
export function decideNative(
  annotations: Readonly<Record<string, string>> | undefined,
  setting: NativeSidecarSetting,
  nodes: readonly NodeVersion[],
  boundTo?: string | null,
): NativeDecision {
  const ann = annotations?.[NATIVE_SIDECAR_ANNOTATION];
  if (ann !== undefined && ann !== '') {
    return ann === 'false'
      ? { native: false, why: `annotation ${NATIVE_SIDECAR_ANNOTATION}: "false" wins` }
      : { native: true, why: `annotation ${NATIVE_SIDECAR_ANNOTATION}: "${ann}" wins` };
  }
  if (setting === 'true') return { native: true, why: `${NATIVE_SIDECAR_ENV}=true on istiod` };
  if (setting === 'false') return { native: false, why: `${NATIVE_SIDECAR_ENV}=false on istiod` };
  return autoDecision(nodes, boundTo);
}
