/**
 * IST0162 GatewayPortNotDefinedOnService and IST0101 ReferencedResourceNotFound (selector), as
 * istioctl's gateway.IngressGatewayPortAnalyzer reports them on Istio Gateways: the pods the
 * Gateway's selector matches (in any namespace; an empty selector matches every pod) and the
 * Services of their namespace that select them give the TCP ports the gateway is reachable on
 * (each port and its targetPort); a server whose port number is none of them is an IST0162,
 * once per server. A Gateway whose selector matches no pod is an IST0101 instead.
 *
 * As istioctl, a Service's selector is matched as a label set (an empty one matches every pod
 * of its namespace) and a named targetPort stands for the Service port. Unlike istioctl on
 * files, a port without protocol is TCP (the API server defaults it so; istioctl sees it so on a
 * live cluster). A server without a port number is left to validation.
 *
 * Istioctl analyzing files adds a default ingress gateway (a pod labelled istio=ingressgateway
 * in the Istio namespace and its Service on 80, 443, 31400 and 15443) unless the mesh config's
 * ingressControllerMode is OFF. The inputs are taken for files so when no Pod among them is in
 * the Istio namespace: a cluster's objects hold istiod's pods there.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog, withSharedEntries } from '../catalog';
import { CONFIG } from '../codes';
import type { Finding } from '../types';
import { screenGateway } from '../gateway-hosts';
import { objectKey } from '../../refs/object-ref';
import { defineRule } from './rule';
import { list, obj, objects, specOf, stringMap } from './raw';
import { assumedIngress, gatewayPods, type GatewayPodLabels } from './file-defaults';

const OWN = defineCatalog('config', {
  portNotOnService: {
    code: 'IST0162',
    severity: 'warning',
    title: 'GatewayPortNotDefinedOnService',
    description:
      "A Gateway server listens on a port that no Service in front of its gateway pods exposes (as port or targetPort): the gateway's Envoy listens there, but clients going through the gateway's Service (its load balancer) cannot reach that port.",
    istio: {
      since: '1.0',
      why: "Gateway servers and the Services of their pods are Istio 1.0's; istioctl analyze reports IST0162 since 1.20.",
    },
  },
});
/** The rule's codes: its own IST0162 and the shared IST0101 entry (one object for both). */
const CATALOG = withSharedEntries(OWN, { referenceNotFound: CONFIG.byKey.referenceNotFound });

/** Istio's networking Gateway (not a Gateway API one), told apart as the screen does. */
export function isIstioGateway(o: KubeObject): boolean {
  const ns = o.metadata.namespace ?? 'default';
  return (
    screenGateway(o as unknown as Record<string, unknown>, objectKey(ns, o.metadata.name), ns)
      .api === 'istio'
  );
}

/** A label set as Kubernetes' labels.SelectorFromSet writes it: `k=v` sorted by key, `,`-joined. */
export function labelSetText(selector: Readonly<Record<string, string>>): string {
  return Object.keys(selector)
    .sort()
    .map((k) => `${k}=${selector[k] ?? ''}`)
    .join(',');
}

/** Every pair of the set is among the labels (an empty set matches everything). */
export function labelSetMatches(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>>,
): boolean {
  return Object.entries(selector).every(([k, v]) => Object.hasOwn(labels, k) && labels[k] === v);
}

/** A Gateway's selector, or null when it is of another shape than a label map. */
export function gatewaySelector(
  spec: Record<string, unknown> | null,
): Record<string, string> | null {
  const raw = spec?.selector;
  if (raw === undefined || raw === null) return {};
  return obj(raw) === null ? null : stringMap(raw);
}

/** A port number as written (a number, or digits), else null. */
function portValue(v: unknown): number | null {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v) && Number(v) > 0) return Number(v);
  return null;
}

/** The TCP ports (port and targetPort) of the Services of `pod`'s namespace that select it. */
function reachablePorts(services: readonly KubeObject[], pod: GatewayPodLabels, out: Set<number>) {
  for (const svc of services) {
    if ((svc.metadata.namespace ?? 'default') !== pod.namespace) continue;
    const spec = specOf(svc);
    if (spec === null || (spec.selector !== undefined && obj(spec.selector) === null)) continue;
    if (!labelSetMatches(stringMap(spec.selector), pod.labels)) continue;
    for (const p of objects(spec.ports)) {
      if ((p.protocol ?? 'TCP') !== 'TCP') continue;
      const port = portValue(p.port);
      if (port !== null) out.add(port);
      const target = portValue(p.targetPort);
      if (target !== null) out.add(target);
    }
  }
}

function finding(
  gw: KubeObject,
  code: 'portNotOnService' | 'referenceNotFound',
  evidence: Finding['evidence'],
  part?: string,
): Finding {
  const f: Finding = {
    code: CATALOG.code[code],
    severity: CATALOG.byKey[code].severity,
    subject: { kind: 'Gateway', namespace: gw.metadata.namespace, name: gw.metadata.name },
    evidence,
    fix: {
      why:
        code === 'referenceNotFound'
          ? 'Point spec.selector at the labels of the gateway pods (istio=ingressgateway for the default ingress), or deploy the gateway.'
          : "Add the port to the gateway's Service (port, or targetPort of a Service port), or listen on a port the Service exposes.",
    },
  };
  if (part !== undefined) f.part = { kind: 'port', name: part };
  return f;
}

export const GATEWAY_SERVICE_PORT = defineRule({
  id: 'gateway-service-port',
  analyzer: 'gateway.IngressGatewayPortAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0162', kinds: ['Gateway'] },
    { code: 'IST0101', kinds: ['Gateway'], reftypes: ['selector'] },
  ],
  reads: ['Gateway', 'Pod', 'Service', 'ConfigMap'],
  check(ctx) {
    const assumed = assumedIngress(ctx);
    const pods = gatewayPods(ctx, assumed);
    const services = ctx.objects('Service');
    const out: Finding[] = [];
    for (const gw of ctx.objects('Gateway')) {
      if (!isIstioGateway(gw)) continue;
      const spec = specOf(gw);
      const selector = gatewaySelector(spec);
      if (selector === null) continue;
      const text = labelSetText(selector);
      const ports = new Set<number>();
      const matched = pods.filter((pod) => labelSetMatches(selector, pod.labels));
      for (const pod of matched) {
        if (assumed !== null && pod === assumed.pod) for (const p of assumed.ports) ports.add(p);
        else reachablePorts(services, pod, ports);
      }
      if (matched.length === 0) {
        out.push(finding(gw, 'referenceNotFound', { reftype: 'selector', selector: text }));
        continue;
      }
      const seen = new Set<number>();
      for (const [i, server] of list(spec?.servers).entries()) {
        const port = obj(obj(server)?.port);
        if (port === null) continue;
        const number = portValue(port.number);
        if (number === null || ports.has(number)) continue;
        out.push(
          finding(
            gw,
            'portNotOnService',
            {
              port: number,
              selector: text,
              servicePorts: [...ports].sort((a, b) => a - b).join(', '),
              assumedDefaultIngress: matched.some((pod) => pod === assumed?.pod),
            },
            seen.has(number) ? `${number} (servers[${i}])` : String(number),
          ),
        );
        seen.add(number);
      }
    }
    return out;
  },
});
