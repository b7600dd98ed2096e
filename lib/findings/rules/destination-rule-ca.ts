/**
 * IST0128 NoServerCertificateVerificationDestinationLevel and IST0129
 * NoServerCertificateVerificationPortLevel, as istioctl's destinationrule.CaCertificateAnalyzer
 * reports them: a DestinationRule whose trafficPolicy.tls (IST0128) or a
 * trafficPolicy.portLevelSettings[].tls (IST0129, once per port) originates TLS in mode SIMPLE
 * or MUTUAL without caCertificates, so the client does not verify the server's certificate.
 * A TLS block with a credentialName is not reported when the DestinationRule has a
 * workloadSelector (the credential's secret then brings the CA); without one it is. Like
 * istioctl, insecureSkipVerify does not silence it (it is the missing verification the message
 * is about), and subsets' traffic policies are not read.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, specOf, str, type Raw } from './raw';

const CATALOG = defineCatalog('config', {
  destinationLevel: {
    code: 'IST0128',
    severity: 'warning',
    title: 'NoServerCertificateVerificationDestinationLevel',
    description:
      "A DestinationRule originates TLS (SIMPLE or MUTUAL) without caCertificates: the client does not verify the server's certificate, so anyone who can intercept the traffic to that host can impersonate it.",
    istio: {
      since: '1.0',
      why: "DestinationRule TLS origination and its caCertificates are Istio 1.0's; istioctl analyze reports IST0128 since 1.7.",
    },
  },
  portLevel: {
    code: 'IST0129',
    severity: 'warning',
    title: 'NoServerCertificateVerificationPortLevel',
    description:
      "A DestinationRule originates TLS (SIMPLE or MUTUAL) on a port without caCertificates: the client does not verify the server's certificate on that port, so anyone who can intercept that traffic can impersonate the server.",
    istio: {
      since: '1.0',
      why: "DestinationRule TLS origination and its caCertificates are Istio 1.0's; istioctl analyze reports IST0129 since 1.7.",
    },
  },
});

/** ClientTLSSettings.TLSmode by number, as protobuf's JSON also accepts it. */
const TLS_MODES = ['DISABLE', 'SIMPLE', 'MUTUAL', 'ISTIO_MUTUAL'] as const;
const VERIFYING_MODES: ReadonlySet<string> = new Set(['SIMPLE', 'MUTUAL']);

function modeOf(tls: Raw | null): string | null {
  const m = tls?.mode;
  if (typeof m === 'number') return TLS_MODES[m] ?? null;
  return str(m) ?? null;
}

/** The mode of a TLS block that should verify the server and does not, else null. */
function unverified(tls: Raw | null, selected: boolean): string | null {
  const mode = modeOf(tls);
  if (tls === null || mode === null || !VERIFYING_MODES.has(mode)) return null;
  if ((str(tls.caCertificates) ?? '') !== '') return null;
  if ((str(tls.credentialName) ?? '') !== '' && selected) return null;
  return mode;
}

function portOf(setting: Raw): string {
  const n = obj(setting.port)?.number;
  return typeof n === 'number' || typeof n === 'string' ? String(n) : '';
}

function finding(
  dr: KubeObject,
  key: 'destinationLevel' | 'portLevel',
  evidence: Finding['evidence'],
  port?: string,
): Finding {
  const subject: Finding['subject'] = { kind: 'DestinationRule', name: dr.metadata.name };
  if (dr.metadata.namespace !== undefined) subject.namespace = dr.metadata.namespace;
  const f: Finding = {
    code: CATALOG.code[key],
    severity: CATALOG.byKey[key].severity,
    subject,
    evidence,
    fix: {
      why: "Set caCertificates to the CA bundle that signed the server's certificate (or, on a DestinationRule with a workloadSelector, a credentialName whose secret holds ca.crt) so the client verifies the server.",
    },
  };
  if (port !== undefined) f.part = { kind: 'port', name: port };
  return f;
}

export const DESTINATION_RULE_CA = defineRule({
  id: 'destination-rule-ca',
  analyzer: 'destinationrule.CaCertificateAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0128', kinds: ['DestinationRule'] },
    { code: 'IST0129', kinds: ['DestinationRule'] },
  ],
  reads: ['DestinationRule'],
  check(ctx) {
    const out: Finding[] = [];
    for (const dr of ctx.objects('DestinationRule')) {
      const spec = specOf(dr);
      if (spec === null || (spec.host !== undefined && typeof spec.host !== 'string')) continue;
      const selected = spec.workloadSelector !== undefined && spec.workloadSelector !== null;
      const host = str(spec.host) ?? '';
      const policy = obj(spec.trafficPolicy);
      const mode = unverified(obj(policy?.tls), selected);
      if (mode !== null) {
        out.push(finding(dr, 'destinationLevel', { host, mode, at: 'trafficPolicy.tls' }));
      }
      list(policy?.portLevelSettings).forEach((raw, i) => {
        const setting = obj(raw);
        const portMode = setting === null ? null : unverified(obj(setting.tls), selected);
        if (setting === null || portMode === null) return;
        const port = portOf(setting);
        const at = `trafficPolicy.portLevelSettings[${i}].tls`;
        out.push(finding(dr, 'portLevel', { host, mode: portMode, port, at }, port));
      });
    }
    return out;
  },
});
