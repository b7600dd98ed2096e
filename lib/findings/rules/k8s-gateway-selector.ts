/**
 * IST0166 IneffectiveSelector, as istioctl's k8sgateway.SelectorAnalyzer reports it: an
 * AuthorizationPolicy, RequestAuthentication, Telemetry or WasmPlugin without `targetRef` whose
 * `selector.matchLabels` matches a pod of a Kubernetes Gateway (a pod labelled
 * gateway.networking.k8s.io/gateway-name) in the policy's namespace. Once per such pod, as
 * istioctl reports it; a selector without matchLabels matches every gateway pod of the
 * namespace. A policy with `targetRefs` (plural) and a selector is reported too: istioctl
 * looks at `targetRef` only (validation refuses both set anyway).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj, specOf, stringMap } from './raw';

const CATALOG = defineCatalog('config', {
  ineffectiveSelector: {
    code: 'IST0166',
    severity: 'warning',
    title: 'IneffectiveSelector',
    description:
      'A policy (AuthorizationPolicy, RequestAuthentication, Telemetry, WasmPlugin) picks the pods of a Kubernetes Gateway API gateway by workload selector: Istio does not apply selectors to such gateways, so the policy is silently not enforced there (an AuthorizationPolicy meant to deny lets traffic through). Bind it with targetRefs to the Gateway instead.',
    istio: {
      since: '1.21',
      why: 'istioctl analyze reports IST0166 since 1.21, and the targetRefs the fix binds with are first in Istio 1.22.0; no evidence of how older istiods applied selectors to Gateway API gateways.',
    },
  },
});

const GATEWAY_NAME = 'gateway.networking.k8s.io/gateway-name';
const POLICY_KINDS = ['AuthorizationPolicy', 'RequestAuthentication', 'Telemetry', 'WasmPlugin'];

/** A field istioctl reads as set: present and not null. */
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export const K8S_GATEWAY_SELECTOR = defineRule({
  id: 'k8s-gateway-selector',
  analyzer: 'k8sgateway.SelectorAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0166', kinds: POLICY_KINDS }],
  reads: ['Pod', ...POLICY_KINDS],
  check(ctx) {
    const gatewayPods = new Map<string, { name: string; labels: Record<string, string> }[]>();
    for (const pod of ctx.objects('Pod')) {
      const labels = stringMap(pod.metadata.labels);
      if (!Object.hasOwn(labels, GATEWAY_NAME)) continue;
      const ns = pod.metadata.namespace ?? 'default';
      gatewayPods.set(ns, [...(gatewayPods.get(ns) ?? []), { name: pod.metadata.name, labels }]);
    }
    if (gatewayPods.size === 0) return [];
    const out: Finding[] = [];
    const report = (policy: KubeObject, kind: string) => {
      const spec = specOf(policy);
      if (spec === null || isSet(spec.targetRef) || !isSet(spec.selector)) return;
      const selector = obj(spec.selector);
      if (selector === null) return;
      const matchLabels = selector.matchLabels;
      if (isSet(matchLabels) && obj(matchLabels) === null) return;
      const wanted = stringMap(matchLabels);
      for (const pod of gatewayPods.get(policy.metadata.namespace ?? 'default') ?? []) {
        const matches = Object.entries(wanted).every(
          ([k, v]) => Object.hasOwn(pod.labels, k) && pod.labels[k] === v,
        );
        if (!matches) continue;
        const gateway = pod.labels[GATEWAY_NAME] ?? '';
        out.push({
          code: CATALOG.code.ineffectiveSelector,
          severity: CATALOG.byKey.ineffectiveSelector.severity,
          subject: { kind, namespace: policy.metadata.namespace, name: policy.metadata.name },
          part: { kind: 'pod', name: pod.name },
          evidence: { gateway, pod: pod.name, selector: JSON.stringify(wanted) },
          fix: {
            why: `Replace spec.selector with targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: ${gateway}}].`,
          },
        });
      }
    };
    for (const kind of POLICY_KINDS) for (const p of ctx.objects(kind)) report(p, kind);
    return out;
  },
});
