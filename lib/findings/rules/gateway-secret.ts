/**
 * IST0161 InvalidGatewayCredential, as istioctl's gateway.SecretAnalyzer reports it, and the
 * analyzer's IST0101 ReferencedResourceNotFound (credentialName): an Istio Gateway server whose
 * `tls.credentialName` names a Secret that is not in the gateway's namespace (IST0101), or one
 * that holds no usable certificate (IST0161): neither `cert`+`key` nor `tls.crt`+`tls.key`
 * non-empty, a certificate that is not PEM, or whose first certificate is expired or not yet
 * valid (as istiod's SDS refuses it). The gateway then serves no TLS on that server.
 *
 * The gateway's namespace is that of the first pod the Gateway's selector matches (the
 * Secret is looked up there, or at `ns/name` when credentialName names one); on files,
 * istioctl's stand-in ingress gateway pod (./file-defaults.ts, in the Istio namespace) is among
 * the pods. A Gateway that matches no pod is IngressGatewayPortAnalyzer's IST0101 (selector),
 * ./gateway-service-port.ts, which istioctl's SecretAnalyzer reports too: not repeated here.
 * Only IST0161 is claimed: the agreement grid credits an IST0101 of a Gateway to one analyzer,
 * and the selector ones are IngressGatewayPortAnalyzer's.
 *
 * Judging a credential needs the Secret's contents: on a live cluster meshdx does not read
 * Secrets, so the rule is not run there (rulesNotRun says so); it runs on files and on
 * archives that hold Secrets. The certificate check reads the DER up to the validity only
 * (./x509-validity.ts).
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog, withSharedEntries } from '../catalog';
import { CONFIG } from '../codes';
import type { Finding } from '../types';
import { objectKey } from '../../refs/object-ref';
import { podKey } from '../../refs/pod-ref';
import { defineRule } from './rule';
import { dataOf, list, obj, specOf, str } from './raw';
import { assumedIngress, gatewayPods } from './file-defaults';
import { gatewaySelector, isIstioGateway, labelSetMatches } from './gateway-service-port';
import { certificateValidity } from './x509-validity';

const OWN = defineCatalog('config', {
  invalidCredential: {
    code: 'IST0161',
    severity: 'error',
    title: 'InvalidGatewayCredential',
    description:
      "A Gateway server's TLS credential (the Secret named by credentialName) holds no usable certificate: keys missing or empty, not a PEM certificate, or a certificate expired or not yet valid. The gateway does not serve TLS on that server: clients get connection resets or handshake failures.",
    istio: {
      since: '1.1',
      why: "Gateway servers' credentialName is first in Istio 1.1.0; istioctl analyze reports IST0161 since 1.18.",
    },
  },
});
/** The rule's codes: its own IST0161 and the shared IST0101 entry (one object for both). */
const CATALOG = withSharedEntries(OWN, { referenceNotFound: CONFIG.byKey.referenceNotFound });

/** A data value of a Secret, decoded; '' when absent or not base64. */
function secretValue(data: Record<string, unknown>, key: string): string {
  const v = str(data[key]);
  if (v === undefined || v === '') return '';
  try {
    return atob(v.replace(/\s+/g, ''));
  } catch {
    return '';
  }
}

/** Why the Secret holds no usable certificate, or null when it does. */
export function credentialProblem(secret: KubeObject, now: number): string | null {
  const data = dataOf(secret) ?? {};
  let cert: string;
  if (secretValue(data, 'cert') !== '' && secretValue(data, 'key') !== '') {
    cert = secretValue(data, 'cert');
  } else if (secretValue(data, 'tls.crt') !== '' && secretValue(data, 'tls.key') !== '') {
    cert = secretValue(data, 'tls.crt');
  } else {
    return 'no non-empty cert and key, nor tls.crt and tls.key';
  }
  const validity = certificateValidity(cert);
  if (validity === null) return 'the certificate is not a readable PEM certificate';
  if (now > validity.notAfter.getTime())
    return `the certificate expired ${validity.notAfter.toISOString()}`;
  if (now < validity.notBefore.getTime())
    return `the certificate is not valid before ${validity.notBefore.toISOString()}`;
  return null;
}

export const GATEWAY_SECRET = defineRule({
  id: 'gateway-secret',
  analyzer: 'gateway.SecretAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0161', kinds: ['Gateway'] }],
  reads: ['Gateway', 'Pod', 'Secret'],
  check(ctx) {
    const pods = gatewayPods(ctx, assumedIngress(ctx));
    const secrets = new Map(
      ctx
        .objects('Secret')
        .map((s) => [objectKey(s.metadata.namespace ?? 'default', s.metadata.name), s]),
    );
    const now = Date.now();
    const out: Finding[] = [];
    for (const gw of ctx.objects('Gateway').filter(isIstioGateway)) {
      const spec = specOf(gw);
      const selector = gatewaySelector(spec);
      if (selector === null) continue;
      const pod = pods.find((p) => labelSetMatches(selector, p.labels));
      if (pod === undefined) continue;
      const subject = {
        kind: 'Gateway',
        namespace: gw.metadata.namespace ?? 'default',
        name: gw.metadata.name,
      };
      list(spec?.servers).forEach((server, i) => {
        const tls = obj(obj(server)?.tls);
        const name = str(tls?.credentialName) ?? '';
        if (name === '') return;
        const key = name.includes('/') ? name : objectKey(pod.namespace, name);
        const part = { kind: 'field' as const, name: `servers[${i}].tls.credentialName` };
        const secret = secrets.get(key);
        if (secret === undefined) {
          out.push({
            code: CATALOG.code.referenceNotFound,
            severity: CATALOG.byKey.referenceNotFound.severity,
            subject,
            part,
            evidence: { reftype: 'credentialName', ref: name, gatewayNamespace: pod.namespace },
            fix: {
              why: `The gateway pods (${podKey(pod.namespace, pod.name)}) read credentials from their own namespace: create Secret ${key}, or fix credentialName.`,
            },
          });
          return;
        }
        const problem = credentialProblem(secret, now);
        if (problem === null) return;
        out.push({
          code: CATALOG.code.invalidCredential,
          severity: CATALOG.byKey.invalidCredential.severity,
          subject,
          part,
          evidence: { secret: key, problem },
          fix: {
            why: `Put a valid PEM certificate and its key in Secret ${key} under tls.crt and tls.key (kubectl create secret tls), renewing it if it expired.`,
          },
        });
      });
    }
    return out;
  },
});
