/**
 * IST0167 IneffectivePolicy on Sidecars, as istioctl's sidecar.SelectorAnalyzer reports it: a
 * Sidecar that only applies to workloads without a sidecar proxy has no effect. Two cases,
 * each Sidecar reported once:
 * - its workloadSelector matches a pod of its namespace in the ambient mesh (annotated
 *   ambient.istio.io/redirection=enabled, which the Istio CNI sets on the pods it redirects);
 * - it has no workloadSelector (or an empty one) and its namespace is in the ambient mesh
 *   (labelled istio.io/dataplane-mode=ambient, without istio-injection=enabled nor a non-empty
 *   istio.io/rev, either of which puts sidecars there).
 * A selector Sidecar is reported even when it also matches sidecar pods, as istioctl does (the
 * ambient pod it selects gets nothing from it). The IST0110/IST0111/IST0101 of the same
 * analyzer are lib/scoping/checks.ts's.
 *
 * Pods are matched as istioctl matches them: the inputs' pods only (not pod templates), by
 * label set, in the Sidecar's namespace. A Sidecar whose spec, workloadSelector or labels has
 * another shape is left out (istioctl cannot read it).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj, stringMap } from './raw';
import { labelSetMatches } from './gateway-service-port';

const CATALOG = defineCatalog('config', {
  ineffectiveSidecar: {
    code: 'IST0167',
    severity: 'warning',
    title: 'IneffectivePolicy',
    description:
      'A Sidecar applies only to workloads in the ambient mesh, which run no sidecar proxy: its egress, ingress and outbound settings are never applied, and whoever wrote it believes traffic is restricted or tuned when it is not.',
    istio: {
      since: '1.18',
      why: 'Ambient (istio.io/dataplane-mode) is first in Istio 1.18.0, and an ambient workload runs no sidecar on any ambient release; istioctl analyze reports IST0167 since 1.21.',
    },
  },
});

const absent = (v: unknown): boolean => v === undefined || v === null;

/** The Sidecar's workloadSelector labels ({} for none); null when istioctl cannot read them. */
function selectorOf(s: KubeObject): Record<string, string> | null {
  const rawSpec = (s as KubeObject & { spec?: unknown }).spec;
  if (absent(rawSpec)) return {};
  const spec = obj(rawSpec);
  if (spec === null) return null;
  if (absent(spec.workloadSelector)) return {};
  const selector = obj(spec.workloadSelector);
  if (selector === null) return null;
  if (absent(selector.labels)) return {};
  const labels = obj(selector.labels);
  if (labels === null) return null;
  const map = stringMap(labels);
  return Object.keys(map).length === Object.keys(labels).length ? map : null;
}

/** Whether the Namespace object puts its workloads in the ambient mesh (sidecars not injected). */
function ambientNamespace(n: KubeObject): boolean {
  const l = stringMap(n.metadata.labels);
  if (l['istio-injection'] === 'enabled') return false;
  if ((l['istio.io/rev'] ?? '') !== '') return false;
  return l['istio.io/dataplane-mode'] === 'ambient';
}

const ambientPod = (p: KubeObject): boolean =>
  stringMap(p.metadata.annotations)['ambient.istio.io/redirection'] === 'enabled';

export const SIDECAR_AMBIENT = defineRule({
  id: 'sidecar-ambient',
  analyzer: 'sidecar.SelectorAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0167', kinds: ['Sidecar'] }],
  reads: ['Sidecar', 'Pod', 'Namespace'],
  check(ctx) {
    const ambientNamespaces = new Set(
      ctx
        .objects('Namespace')
        .filter(ambientNamespace)
        .map((n) => n.metadata.name),
    );
    const ambientPods = ctx.objects('Pod').filter(ambientPod);
    const out: Finding[] = [];
    for (const s of ctx.objects('Sidecar')) {
      const selector = selectorOf(s);
      if (selector === null) continue;
      const ns = s.metadata.namespace ?? 'default';
      let reason: string;
      let pod: string | undefined;
      if (Object.keys(selector).length === 0) {
        if (!ambientNamespaces.has(ns)) continue;
        reason = 'namespace is in ambient mode, the policy has no impact';
      } else {
        const selected = ambientPods
          .filter((p) => (p.metadata.namespace ?? 'default') === ns)
          .filter((p) => labelSetMatches(selector, stringMap(p.metadata.labels)))
          .map((p) => p.metadata.name)
          .sort();
        if (selected.length === 0) continue;
        reason = 'selected workload is in ambient mode, the policy has no impact';
        pod = selected.join(', ');
      }
      out.push({
        code: CATALOG.code.ineffectiveSidecar,
        severity: CATALOG.byKey.ineffectiveSidecar.severity,
        subject: { kind: 'Sidecar', namespace: ns, name: s.metadata.name },
        evidence: {
          reason,
          ...(pod === undefined ? { namespace: ns } : { ambientPods: pod }),
        },
        fix: {
          why:
            pod === undefined
              ? `Namespace ${ns} is in the ambient mesh: its pods have no sidecar. Delete the Sidecar, or put its settings where ambient applies them (a waypoint, AuthorizationPolicy), or move the namespace back to sidecar injection.`
              : 'The pods it selects are in the ambient mesh and run no sidecar: delete the Sidecar or narrow its workloadSelector to sidecar-injected pods.',
        },
      });
    }
    return out;
  },
});
