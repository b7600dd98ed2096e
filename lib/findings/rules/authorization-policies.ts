/**
 * IST0127 NoMatchingWorkloadsFound and IST0101 ReferencedResourceNotFound (namespace), as
 * istioctl's authz.AuthorizationPoliciesAnalyzer reports them on AuthorizationPolicies:
 * - IST0127 when the policy applies to no workload of the mesh: in the root namespace
 *   (mesh-wide) a selector that matches no mesh pod anywhere; elsewhere no selector and no
 *   mesh pod in its namespace, or a selector that matches no mesh pod of its namespace. A
 *   mesh-wide policy without selector is never reported. A policy meant to deny protects
 *   nothing; one meant to allow lets nothing in once a workload appears.
 * - IST0101 for each `rules[].from[].source.namespaces` / `notNamespaces` entry that names no
 *   namespace among the Namespaces read (`*`, `prefix*` and `*suffix` match as Istio matches
 *   them; with no Namespace at all, every entry is reported, as istioctl does).
 *
 * A mesh pod is as istioctl's util.PodInMesh takes it: an istio-proxy container with an image,
 * else its sidecar.istio.io/inject label, else that annotation, else its Namespace's
 * istio-injection=enabled; or a pod the Istio CNI redirects to ztunnel (annotated
 * ambient.istio.io/redirection=enabled). On files, istioctl's stand-in ingress gateway pod
 * (./file-defaults.ts) counts as a pod without containers. As istioctl, `targetRef(s)` is not
 * looked at: a policy bound to a waypoint or gateway is judged by its namespace's pods.
 * A policy whose spec, selector or matchLabels has another shape is left out of IST0127.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog, withSharedEntries } from '../catalog';
import { CONFIG } from '../codes';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj, objects, specOf, str, strings, stringMap, type Raw } from './raw';
import { assumedIngress } from './file-defaults';
import { labelSetMatches, labelSetText } from './gateway-service-port';

const OWN = defineCatalog('config', {
  noMatchingWorkloads: {
    code: 'IST0127',
    severity: 'warning',
    title: 'NoMatchingWorkloadsFound',
    description:
      'An AuthorizationPolicy applies to no workload of the mesh (its selector matches no mesh pod, or its namespace has none): a policy meant to deny protects nothing, and a selector typo goes unnoticed until the workload it was meant for is exposed.',
    istio: {
      since: '1.4',
      why: 'AuthorizationPolicy (security.istio.io) is first in Istio 1.4.0; istioctl analyze reports IST0127 since 1.7.',
    },
  },
});
/** The rule's codes: its own IST0127 and the shared IST0101 entry (one object for both). */
const CATALOG = withSharedEntries(OWN, { referenceNotFound: CONFIG.byKey.referenceNotFound });

const absent = (v: unknown): boolean => v === undefined || v === null;

/** Whether a pod is in the mesh as istioctl's util.PodInMesh and PodInAmbientMode take it. */
function inMesh(pod: KubeObject, injectedNamespaces: ReadonlyMap<string, boolean>): boolean {
  const annotations = stringMap(pod.metadata.annotations);
  if (annotations['ambient.istio.io/redirection'] === 'enabled') return true;
  const spec = specOf(pod);
  const proxy = [...objects(spec?.containers), ...objects(spec?.initContainers)].find(
    (c) => c.name === 'istio-proxy',
  );
  if ((str(proxy?.image) ?? '') !== '') return true;
  const labels = stringMap(pod.metadata.labels);
  if (Object.hasOwn(labels, 'sidecar.istio.io/inject'))
    return labels['sidecar.istio.io/inject'] === 'true';
  if (Object.hasOwn(annotations, 'sidecar.istio.io/inject'))
    return annotations['sidecar.istio.io/inject'] === 'true';
  return injectedNamespaces.get(pod.metadata.namespace ?? 'default') ?? false;
}

/** A namespace expression of a source as Istio matches it: `*`, `*suffix`, `prefix*`, exact. */
function namespaceMatches(ns: string, exp: string): boolean {
  if (exp === '*') return true;
  if (exp.startsWith('*')) return ns.endsWith(exp.slice(1));
  if (exp.endsWith('*')) return ns.startsWith(exp.slice(0, -1));
  return ns.toLowerCase() === exp.toLowerCase();
}

/** The policy's selector labels: undefined for none, null when unreadable. */
function selectorOf(spec: Raw): Record<string, string> | undefined | null {
  if (absent(spec.selector)) return undefined;
  const selector = obj(spec.selector);
  if (selector === null) return null;
  if (absent(selector.matchLabels)) return {};
  const labels = obj(selector.matchLabels);
  if (labels === null) return null;
  const map = stringMap(labels);
  return Object.keys(map).length === Object.keys(labels).length ? map : null;
}

export const AUTHORIZATION_POLICIES = defineRule({
  id: 'authorization-policies',
  analyzer: 'authz.AuthorizationPoliciesAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0127', kinds: ['AuthorizationPolicy'] },
    { code: 'IST0101', kinds: ['AuthorizationPolicy'], reftypes: ['namespace'] },
  ],
  reads: ['AuthorizationPolicy', 'Namespace', 'Pod'],
  check(ctx) {
    const namespaces = ctx.objects('Namespace').map((n) => n.metadata.name);
    const injected = new Map(
      ctx
        .objects('Namespace')
        .map((n) => [
          n.metadata.name,
          stringMap(n.metadata.labels)['istio-injection'] === 'enabled',
        ]),
    );
    const meshPods = ctx
      .objects('Pod')
      .filter((p) => inMesh(p, injected))
      .map((p) => ({
        namespace: p.metadata.namespace ?? 'default',
        labels: stringMap(p.metadata.labels),
      }));
    const ingress = assumedIngress(ctx)?.pod;
    if (ingress !== undefined && (injected.get(ingress.namespace) ?? false)) meshPods.push(ingress);
    // a policy outside the root namespace is judged by its own namespace's mesh pods
    const meshPodsByNamespace = new Map<string, typeof meshPods>();
    for (const p of meshPods) {
      const l = meshPodsByNamespace.get(p.namespace);
      if (l === undefined) meshPodsByNamespace.set(p.namespace, [p]);
      else l.push(p);
    }
    // an exact name (no `*`) matches as namespaceMatches compares it: case aside
    const namesLowered = new Set(namespaces.map((n) => n.toLowerCase()));
    const anyMatches = (exp: string) =>
      exp.startsWith('*') || exp.endsWith('*')
        ? namespaces.some((n) => namespaceMatches(n, exp))
        : namesLowered.has(exp.toLowerCase());
    const out: Finding[] = [];
    for (const ap of ctx.objects('AuthorizationPolicy')) {
      const ns = ap.metadata.namespace ?? 'default';
      const subject = { kind: 'AuthorizationPolicy', namespace: ns, name: ap.metadata.name };
      const rawSpec = (ap as KubeObject & { spec?: unknown }).spec;
      const spec = absent(rawSpec) ? {} : obj(rawSpec);
      if (spec === null) continue;
      const selector = selectorOf(spec);
      const meshWide = ns === ctx.rootNamespace;
      if (selector !== null && !(meshWide && selector === undefined)) {
        const candidates = meshWide ? meshPods : (meshPodsByNamespace.get(ns) ?? []);
        const matched = candidates.some((p) => labelSetMatches(selector ?? {}, p.labels));
        if (!matched) {
          const labels = selector === undefined ? '' : labelSetText(selector);
          out.push({
            code: CATALOG.code.noMatchingWorkloads,
            severity: CATALOG.byKey.noMatchingWorkloads.severity,
            subject,
            evidence: { labels, scope: meshWide ? 'mesh' : `namespace ${ns}` },
            fix: {
              why:
                selector === undefined
                  ? `Namespace ${ns} has no pod in the mesh: inject its workloads (or add them to the ambient mesh), or delete the policy.`
                  : `No mesh pod ${meshWide ? 'of any namespace' : `of namespace ${ns}`} has the labels ${labels}: fix spec.selector.matchLabels, or inject the workloads it is meant for.`,
            },
          });
        }
      }
      objects(spec.rules).forEach((rule, i) => {
        objects(rule.from).forEach((from, j) => {
          const source = obj(from.source);
          if (source === null) return;
          const refs = [
            ...strings(source.namespaces).map((exp, k) => ({ exp, at: `namespaces[${k}]` })),
            ...strings(source.notNamespaces).map((exp, k) => ({ exp, at: `notNamespaces[${k}]` })),
          ];
          for (const { exp, at } of refs) {
            if (anyMatches(exp)) continue;
            out.push({
              code: CATALOG.code.referenceNotFound,
              severity: CATALOG.byKey.referenceNotFound.severity,
              subject,
              part: { kind: 'field', name: `rules[${i}].from[${j}].source.${at}` },
              evidence: { reftype: 'namespace', ref: exp },
              fix: {
                why: `No namespace matches ${exp}: fix the name (a typo makes the rule match no request), or remove it.`,
              },
            });
          }
        });
      });
    }
    return out;
  },
});
