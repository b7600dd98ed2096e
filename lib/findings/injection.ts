/**
 * IST0103 PodMissingProxy, with the rules of istioctl's injection analyzer: a namespace is
 * injected by `istio-injection=enabled` or by an `istio.io/rev` label (not both: that is
 * IST0123, and neither label injects); the root and system namespaces are left out; a pod that
 * opts out (`sidecar.istio.io/inject: "false"` as annotation or label, the label winning) or
 * runs on the host network is not expected to have a proxy.
 */
import { hasProxy } from '../dataplane/proxy-container';
import { kindName, kubectlRef, workloadOf } from '../refs/workload-ref';
import type { Namespace, Pod } from '../kube/types';
import { SYSTEM_NAMESPACES } from '../protocol/select';
import { CONFIG } from './codes';
import { perObject } from './guard';
import type { Finding } from './types';

export const INJECT_KEY = 'sidecar.istio.io/inject';
export const LEGACY_LABEL = 'istio-injection';
export const REVISION_LABEL = 'istio.io/rev';

export type NamespaceInjection =
  | { injected: true; by: 'label' | 'revision'; revision: string | null }
  | { injected: false; why: 'unlabelled' | 'disabled' | 'conflicting-labels' | 'excluded' };

export function namespaceInjection(
  ns: Namespace,
  rootNamespace = 'istio-system',
): NamespaceInjection {
  const name = ns.metadata.name;
  if (name === rootNamespace || SYSTEM_NAMESPACES.has(name))
    return { injected: false, why: 'excluded' };
  const labels = ns.metadata.labels ?? {};
  const legacy = labels[LEGACY_LABEL] ?? '';
  const hasRev = REVISION_LABEL in labels;
  if (legacy === '' && !hasRev) return { injected: false, why: 'unlabelled' };
  if (hasRev) {
    if (legacy !== '') return { injected: false, why: 'conflicting-labels' };
    return { injected: true, by: 'revision', revision: labels[REVISION_LABEL] ?? null };
  }
  if (legacy !== 'enabled') return { injected: false, why: 'disabled' };
  return { injected: true, by: 'label', revision: null };
}

/** The pod's own word on injection: the label wins over the annotation; null when neither. */
export function podInjectionOverride(pod: Pod): string | null {
  const label = pod.metadata.labels?.[INJECT_KEY];
  if (label !== undefined) return label;
  return pod.metadata.annotations?.[INJECT_KEY] ?? null;
}

/** IST0103 for pods of injected namespaces that run without istio-proxy and did not opt out. */
export function injectionFindings(
  namespaces: readonly Namespace[],
  pods: readonly Pod[],
  rootNamespace = 'istio-system',
): Finding[] {
  const injected = new Map<string, NamespaceInjection & { injected: true }>();
  for (const ns of namespaces) {
    const inj = namespaceInjection(ns, rootNamespace);
    if (inj.injected) injected.set(ns.metadata.name, inj);
  }
  return perObject('injection', pods, (pod) => {
    const ns = pod.metadata.namespace ?? 'default';
    const inj = injected.get(ns);
    if (inj === undefined) return [];
    const override = podInjectionOverride(pod);
    if (override !== null && override.toLowerCase() === 'false') return [];
    if ((pod.spec as { hostNetwork?: boolean }).hostNetwork === true) return [];
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return [];
    if (hasProxy(pod)) return [];
    const w = workloadOf(pod);
    const restart =
      w.kind === 'Pod'
        ? `kubectl -n ${ns} delete pod ${pod.metadata.name}   # recreate it from its manifest`
        : `kubectl -n ${ns} rollout restart ${kubectlRef(w)}`;
    return [
      {
        code: CONFIG.code.podMissingProxy,
        severity: CONFIG.byKey.podMissingProxy.severity,
        subject: { kind: 'Pod', namespace: ns, name: pod.metadata.name },
        evidence: {
          namespaceInjection:
            inj.by === 'revision'
              ? `${REVISION_LABEL}=${inj.revision ?? ''}`
              : `${LEGACY_LABEL}=enabled`,
          podOverride: override,
          workload: kindName(w),
        },
        fix: {
          why: 'Restart the workload so the injector adds the proxy (or set sidecar.istio.io/inject: "false" on pods meant to run without it).',
          yaml: restart,
        },
      },
    ];
  });
}
