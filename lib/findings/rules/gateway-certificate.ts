/**
 * IST0138 GatewayDuplicateCertificate, as istioctl's gateway.CertificateAnalyzer reports it: two
 * Istio Gateways on the same gateway pods serve TLS with the same certificate. Browsers and
 * HTTP/2 clients reuse a connection for every host the certificate covers, so a request for a
 * host of the other Gateway arrives on a connection whose route table does not have it: 404.
 *
 * As istioctl: a Gateway G is compared with every other Gateway H of any namespace whose
 * selector holds all of G's labels with the same values (any Gateway when G's selector is
 * empty); each pair of a TLS server of G and a TLS server of H with the same certificate (the
 * same credentialName when both have one; else the same serverCertificate and privateKey when
 * neither has a credentialName and both have both) is reported on G, once per pair of servers.
 * So the Gateway with the narrower selector may be reported while the other is not. Istiod's
 * PILOT_SCOPE_GATEWAY_TO_NAMESPACE (off by default) would restrict H to G's namespace: not
 * followed, as istioctl's default. A Gateway whose spec, selector, servers or tls has another
 * shape is read as far as it can be (istioctl would not read it at all): an unreadable selector
 * or server is left out.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { objectKey } from '../../refs/object-ref';
import { defineRule } from './rule';
import { list, obj, specOf, str, type Raw } from './raw';
import { gatewaySelector, isIstioGateway } from './gateway-service-port';

const CATALOG = defineCatalog('config', {
  duplicateCertificate: {
    code: 'IST0138',
    severity: 'warning',
    title: 'GatewayDuplicateCertificate',
    description:
      'Two Gateways on the same gateway pods serve TLS with the same certificate: clients (HTTP/2, browsers) reuse one connection for every host the certificate covers, and requests for the other Gateway’s hosts on that connection get 404s.',
    istio: {
      since: '1.0',
      why: "Gateway TLS servers are Istio 1.0's (credentialName from 1.1); istioctl analyze reports IST0138 since 1.10.",
    },
  },
});

interface TlsServer {
  index: number;
  tls: Raw;
}

interface GatewayTls {
  key: string;
  gateway: KubeObject;
  selector: Record<string, string>;
  servers: TlsServer[];
}

/** The servers that have a `tls` block, with their index in spec.servers. */
function tlsServers(spec: Raw | null): TlsServer[] {
  return list(spec?.servers).flatMap((s, index) => {
    const tls = obj(obj(s)?.tls);
    return tls === null ? [] : [{ index, tls }];
  });
}

/** Whether both TLS settings name the same certificate, as istioctl compares them. */
function sameCertificate(a: Raw, b: Raw): boolean {
  const credA = str(a.credentialName) ?? '';
  const credB = str(b.credentialName) ?? '';
  if (credA !== '' && credB !== '') return credA === credB;
  if (credA !== '' || credB !== '') return false;
  const certA = str(a.serverCertificate) ?? '';
  const certB = str(b.serverCertificate) ?? '';
  if (certA === '' || certB === '' || certA !== certB) return false;
  const keyA = str(a.privateKey) ?? '';
  const keyB = str(b.privateKey) ?? '';
  return keyA !== '' && keyB !== '' && keyA === keyB;
}

/** Every label of `inner` is in `outer` with the same value. */
const subsetOf = (inner: Record<string, string>, outer: Record<string, string>): boolean =>
  Object.entries(inner).every(([k, v]) => Object.hasOwn(outer, k) && outer[k] === v);

const certificateText = (tls: Raw): string =>
  str(tls.credentialName) || `serverCertificate ${str(tls.serverCertificate) ?? ''}`;

export const GATEWAY_CERTIFICATE = defineRule({
  id: 'gateway-certificate',
  analyzer: 'gateway.CertificateAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0138', kinds: ['Gateway'] }],
  reads: ['Gateway'],
  check(ctx) {
    const gateways: GatewayTls[] = ctx
      .objects('Gateway')
      .filter(isIstioGateway)
      .flatMap((g) => {
        const spec = specOf(g);
        const selector = gatewaySelector(spec);
        if (selector === null) return [];
        const key = objectKey(g.metadata.namespace ?? 'default', g.metadata.name);
        return [{ key, gateway: g, selector, servers: tlsServers(spec) }];
      });
    const out: Finding[] = [];
    for (const g of gateways) {
      for (const h of gateways) {
        if (h.key === g.key) continue;
        if (Object.keys(g.selector).length > 0 && !subsetOf(g.selector, h.selector)) continue;
        for (const mine of g.servers) {
          for (const theirs of h.servers) {
            if (!sameCertificate(mine.tls, theirs.tls)) continue;
            out.push({
              code: CATALOG.code.duplicateCertificate,
              severity: CATALOG.byKey.duplicateCertificate.severity,
              subject: {
                kind: 'Gateway',
                namespace: g.gateway.metadata.namespace ?? 'default',
                name: g.gateway.metadata.name,
              },
              part: {
                kind: 'field',
                name: `servers[${mine.index}] ~ ${h.key} servers[${theirs.index}]`,
              },
              evidence: {
                gateways: `${g.key}, ${h.key}`,
                certificate: certificateText(mine.tls),
              },
              fix: {
                why: `Serve these hosts from one Gateway (one server per certificate), or give ${h.key} its own certificate.`,
              },
            });
          }
        }
      }
    }
    return out;
  },
});
