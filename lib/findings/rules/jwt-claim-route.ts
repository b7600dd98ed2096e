/**
 * IST0149 JwtClaimBasedRoutingWithoutRequestAuthN, as istioctl's
 * virtualservice.JWTClaimRouteAnalyzer reports it: a VirtualService that routes on a JWT claim
 * (an http match on a header, or withoutHeaders, named `@request.auth.claims.NAME` or
 * `@request.auth.claims[NAME]...`) and is bound to an Istio Gateway (`mesh` aside; `ns/name`,
 * or a name in the VirtualService's namespace; a Gateway that does not exist is the gateway
 * check's finding) whose selector picks pods (an empty selector picks every pod) that no
 * RequestAuthentication selects. The RequestAuthentications consulted are those of the pod's
 * namespace and of istio-system (istioctl's), and of the mesh's root namespace when it is
 * another (they apply mesh-wide); one without a selector selects every pod. Without a
 * RequestAuthentication the claims are never extracted, so the route never matches. Once per
 * VirtualService, gateway and pod name, as istioctl's messages read.
 *
 * istioctl analyzing files adds a stand-in ingress gateway pod to them (./file-defaults.ts):
 * so does meshdx for files, so the usual gateway selector is judged as istioctl judges it.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { assumedIngress, gatewayPods, type GatewayPodLabels } from './file-defaults';
import { labelSetMatches } from './gateway-service-port';
import { objectKey, objectKeyOf } from '../../refs/object-ref';
import { podKey } from '../../refs/pod-ref';
import { list, obj, objects, specOf, str, stringMap } from './raw';

const CATALOG = defineCatalog('config', {
  claimRouteWithoutAuthn: {
    code: 'IST0149',
    severity: 'error',
    title: 'JwtClaimBasedRoutingWithoutRequestAuthN',
    description:
      'A VirtualService routes on a JWT claim (@request.auth.claims) at a gateway whose pods no RequestAuthentication applies to: the token is never validated there, the claims never exist, and the claim-based route never matches.',
    istio: {
      since: '1.12',
      why: "VirtualService routing on @request.auth.claims is first in Istio 1.12.0's networking code; istioctl analyze reports IST0149 since 1.12.",
    },
  },
});

const CLAIM_PREFIX = '@request.auth.claims';
const ISTIO_NAMESPACE = 'istio-system';
const MESH_GATEWAY = 'mesh';
const GATEWAY_API_GROUP = 'gateway.networking.k8s.io/';
/** Istio's jwt.ToRoutingClaim: `@request.auth.claims` (any case), then `.a.b` or `[a][b]`. */
function isClaimHeader(key: string): boolean {
  if (!key.toLowerCase().startsWith(CLAIM_PREFIX)) return false;
  const rest = key.slice(CLAIM_PREFIX.length);
  if (rest.startsWith('.')) return rest.length > 1;
  return rest.startsWith('[') && rest.endsWith(']') && rest.length > 2;
}

/** The first claim header a VirtualService's http matches route on, else null. */
function claimKey(spec: Record<string, unknown>): string | null {
  for (const route of objects(spec.http)) {
    for (const match of objects(route.match)) {
      for (const field of [match.headers, match.withoutHeaders]) {
        const key = Object.keys(obj(field) ?? {}).find(isClaimHeader);
        if (key !== undefined) return key;
      }
    }
  }
  return null;
}

/** Kubernetes' SelectorFromSet: every label of the set present and equal (an empty set: all). */

/** Istio Gateways by `ns/name`, with their selector; a selector of another shape: unreadable. */
function gatewaySelectors(gateways: readonly KubeObject[]): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const gw of gateways) {
    if ((gw.apiVersion ?? '').startsWith(GATEWAY_API_GROUP)) continue;
    const selector = specOf(gw)?.selector;
    if (selector !== undefined && selector !== null && obj(selector) === null) continue;
    out.set(objectKeyOf(gw), stringMap(selector));
  }
  return out;
}

function authnSelectors(ras: readonly KubeObject[]): Map<string, Record<string, string>[]> {
  const out = new Map<string, Record<string, string>[]>();
  for (const ra of ras) {
    const ns = ra.metadata.namespace ?? 'default';
    const raw = specOf(ra)?.selector;
    const labels = obj(raw)?.matchLabels;
    // a selector or matchLabels of another shape: istioctl cannot read the object
    if (raw !== undefined && raw !== null && obj(raw) === null) continue;
    if (labels !== undefined && labels !== null && obj(labels) === null) continue;
    const selector = stringMap(labels);
    out.set(ns, [...(out.get(ns) ?? []), selector]);
  }
  return out;
}

function authnYaml(pod: GatewayPodLabels, selector: Record<string, string>): string {
  const labels = Object.entries(selector).map(([k, v]) => `      ${k}: ${JSON.stringify(v)}`);
  return [
    'apiVersion: security.istio.io/v1',
    'kind: RequestAuthentication',
    'metadata:',
    '  name: gateway-jwt',
    `  namespace: ${pod.namespace}`,
    'spec:',
    ...(labels.length > 0 ? ['  selector:', '    matchLabels:', ...labels] : []),
    '  jwtRules:',
    '    - issuer: ISSUER',
    '      jwksUri: JWKS_URI',
  ].join('\n');
}

export const JWT_CLAIM_ROUTE = defineRule({
  id: 'jwt-claim-route',
  analyzer: 'virtualservice.JWTClaimRouteAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0149', kinds: ['VirtualService'] }],
  reads: ['VirtualService', 'Gateway', 'Pod', 'RequestAuthentication'],
  check(ctx) {
    const gateways = gatewaySelectors(ctx.objects('Gateway'));
    const authn = authnSelectors(ctx.objects('RequestAuthentication'));
    const assumed = assumedIngress(ctx);
    const pods = gatewayPods(ctx, assumed);
    const authnNamespaces = (ns: string) => [...new Set([ISTIO_NAMESPACE, ctx.rootNamespace, ns])];
    const out: Finding[] = [];
    for (const vs of ctx.objects('VirtualService')) {
      const spec = specOf(vs);
      const key = spec === null ? null : claimKey(spec);
      if (spec === null || key === null) continue;
      const vsNs = vs.metadata.namespace ?? 'default';
      for (const ref of list(spec.gateways)) {
        const name = str(ref);
        if (name === undefined || name === MESH_GATEWAY) continue;
        const gw = name.includes('/') ? name : objectKey(vsNs, name);
        const selector = gateways.get(gw);
        if (selector === undefined) continue;
        for (const pod of pods) {
          if (!labelSetMatches(selector, pod.labels)) continue;
          const ras = authnNamespaces(pod.namespace).flatMap((ns) => authn.get(ns) ?? []);
          if (ras.some((s) => labelSetMatches(s, pod.labels))) continue;
          out.push({
            code: CATALOG.code.claimRouteWithoutAuthn,
            severity: CATALOG.byKey.claimRouteWithoutAuthn.severity,
            subject: { kind: 'VirtualService', namespace: vsNs, name: vs.metadata.name },
            part: { kind: 'pod', name: `${pod.name} via ${gw}` },
            evidence: {
              claimHeader: key,
              gateway: gw,
              pod: podKey(pod.namespace, pod.name),
              standInPod: pod === assumed?.pod,
            },
            fix: {
              why: "Apply a RequestAuthentication that selects the gateway's pods (in their namespace or the root namespace), so the JWT is validated and its claims are there to route on.",
              yaml: authnYaml(pod, selector),
            },
          });
        }
      }
    }
    return out;
  },
});
