/**
 * IST0144 InvalidApplicationUID, as istioctl's deployment.ApplicationUIDAnalyzer reports it: a
 * Pod or a Deployment's pod template that runs as UID 1337, at the pod level or in any container
 * other than istio-proxy and istio-operator. 1337 is the proxy's own UID: iptables lets the
 * proxy's traffic out uncaptured by matching it, so an application running as 1337 bypasses the
 * sidecar. Objects of Istio's control plane (an `istio` label, or release=istio) are skipped.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { isIstioControlPlane } from '../../protocol/select';
import { defineRule } from './rule';
import { obj, type Raw } from './raw';

/** The UID of istio-proxy, which iptables exempts from capture. */
const PROXY_UID = 1337;
const EXEMPT_CONTAINERS: ReadonlySet<string> = new Set(['istio-proxy', 'istio-operator']);

const CATALOG = defineCatalog('config', {
  invalidApplicationUid: {
    code: 'IST0144',
    severity: 'warning',
    title: 'InvalidApplicationUID',
    description:
      'An application runs as UID 1337, which is reserved for the sidecar proxy: its outbound traffic is not captured by istio-proxy (iptables exempts that UID), so mTLS, routing and telemetry do not apply to it.',
    istio: {
      since: '1.0',
      why: "UID 1337 is the proxy's, exempt from capture, in every Istio release; istioctl analyze reports IST0144 since 1.10.",
    },
  },
});

const runAsUser = (holder: unknown): unknown => obj(obj(holder)?.securityContext)?.runAsUser;

/** Where in the pod spec UID 1337 is set (`spec.securityContext`, `containers[app]`), if anywhere. */
function reservedUidAt(podSpec: Raw | null): string | null {
  if (podSpec === null) return null;
  if (runAsUser(podSpec) === PROXY_UID) return 'securityContext';
  const containers = Array.isArray(podSpec.containers) ? podSpec.containers : [];
  for (const c of containers) {
    const name = obj(c)?.name;
    if (typeof name === 'string' && EXEMPT_CONTAINERS.has(name)) continue;
    if (runAsUser(c) === PROXY_UID) return `containers[${typeof name === 'string' ? name : '?'}]`;
  }
  return null;
}

function finding(o: KubeObject, kind: string, at: string): Finding {
  const subject: Finding['subject'] = { kind, name: o.metadata.name };
  if (o.metadata.namespace !== undefined) subject.namespace = o.metadata.namespace;
  return {
    code: CATALOG.code.invalidApplicationUid,
    severity: CATALOG.byKey.invalidApplicationUid.severity,
    subject,
    evidence: { runAsUser: PROXY_UID, at },
    fix: {
      why: 'Run the application as any UID but 1337 (istio-proxy runs as 1337 and its traffic is exempt from capture).',
    },
  };
}

export const APPLICATION_UID = defineRule({
  id: 'application-uid',
  analyzer: 'deployment.ApplicationUIDAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0144', kinds: ['Pod', 'Deployment'] }],
  reads: ['Pod', 'Deployment'],
  perObject: true,
  check(ctx) {
    const out: Finding[] = [];
    const specs: [string, (o: KubeObject) => Raw | null][] = [
      ['Pod', (o) => obj((o as KubeObject & { spec?: unknown }).spec)],
      [
        'Deployment',
        (o) => obj(obj(obj((o as KubeObject & { spec?: unknown }).spec)?.template)?.spec),
      ],
    ];
    for (const [kind, podSpecOf] of specs) {
      for (const o of ctx.objects(kind)) {
        if (isIstioControlPlane(o)) continue;
        const at = reservedUidAt(podSpecOf(o));
        if (at !== null) out.push(finding(o, kind, at));
      }
    }
    return out;
  },
});
