/**
 * IST0163 InvalidExternalControlPlaneConfig and IST0164 ExternalControlPlaneAddressIsNotAHostname,
 * as istioctl's externalcontrolplane.ExternalControlPlaneAnalyzer reports them, on Istio's
 * webhooks (ValidatingWebhookConfiguration `istiod-default-validator` or `istio-validator*`,
 * MutatingWebhookConfiguration `istio-sidecar-injector*`), once per webhook:
 * - IST0163: the webhook's clientConfig has neither a url nor a service (the API server cannot
 *   call the control plane), or a url Go's url.Parse refuses (as Go 1.26, Istio's, parses it);
 * - IST0164: the url's host is an IP address (as Go's net.ParseIP reads it), not a hostname.
 * A url given as an empty string is neither (istioctl parses it to an empty host); a clientConfig
 * with a service is the in-cluster control plane, not judged.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { list, obj, str, type Raw } from './raw';

const CATALOG = defineCatalog('config', {
  invalidExternalControlPlane: {
    code: 'IST0163',
    severity: 'warning',
    title: 'InvalidExternalControlPlaneConfig',
    description:
      'An Istio webhook gives no address for the external control plane (no url and no service) or a url that cannot be parsed: the API server cannot call istiod, so pods are not injected or config is not validated.',
    istio: {
      since: '1.6',
      why: "The external control plane's webhook settings (istiodRemote, injectionURL) are first in Istio 1.6.0; istioctl analyze reports IST0163 since 1.20.",
    },
  },
  addressIsNotAHostname: {
    code: 'IST0164',
    severity: 'info',
    title: 'ExternalControlPlaneAddressIsNotAHostname',
    description:
      "An Istio webhook reaches the external control plane at an IP address rather than a hostname: the address breaks when the gateway's IP changes, and the serving certificate must carry the IP. Not recommended in production.",
    istio: {
      since: '1.6',
      why: "The external control plane's webhook settings (istiodRemote, injectionURL) are first in Istio 1.6.0; istioctl analyze reports IST0164 since 1.20.",
    },
  },
});

type Key = keyof typeof CATALOG.code;

/** Whether a webhook configuration is one of Istio's, by istioctl's names. */
function isIstioWebhook(kind: string, name: string): boolean {
  if (kind === 'MutatingWebhookConfiguration') return name.startsWith('istio-sidecar-injector');
  return name === 'istiod-default-validator' || name.startsWith('istio-validator');
}

const CTL = /[\u0000-\u001f\u007f]/;
/** Bytes allowed unescaped in a host (Go's shouldEscape in encodeHost mode, ASCII). */
const HOST_CHAR = /^[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"]$/;
const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;
const HEX = /^[0-9a-fA-F]$/;

/**
 * Go's unescape: every %XX valid; in a host, ASCII bytes only of a host and %XX only of bytes
 * from 0x80 (or %25); in an IPv6 zone, ASCII bytes of a host and %XX of a space or of them.
 */
function unescapes(s: string, mode: 'host' | 'zone' | 'other'): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charAt(i);
    if (c === '%') {
      if (!HEX.test(s.charAt(i + 1)) || !HEX.test(s.charAt(i + 2))) return false;
      const escape = s.slice(i, i + 3);
      const v = String.fromCharCode(parseInt(escape.slice(1), 16));
      if (mode === 'host' && parseInt(s.charAt(i + 1), 16) < 8 && escape !== '%25') return false;
      if (mode === 'zone' && escape !== '%25' && v !== ' ' && !HOST_CHAR.test(v)) return false;
      i += 2;
    } else if (mode !== 'other' && c.charCodeAt(0) < 0x80 && !HOST_CHAR.test(c)) return false;
  }
  return true;
}

const validPort = (p: string): boolean => p === '' || /^:[0-9]*$/.test(p);

const IPV4_PART = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = new RegExp(`^${IPV4_PART}(\\.${IPV4_PART}){3}$`);

/** An IPv6 address without a zone, as Go's netip.ParseAddr takes it. */
function ipv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2 || !text.includes(':')) return false;
  let groups = 0;
  for (const [h, half] of halves.entries()) {
    const parts = half === '' ? [] : half.split(':');
    for (const [i, p] of parts.entries()) {
      const last = h === halves.length - 1 && i === parts.length - 1;
      if (last && IPV4.test(p)) groups += 2;
      else if (/^[0-9a-fA-F]{1,4}$/.test(p)) groups += 1;
      else return false;
    }
  }
  return halves.length === 2 ? groups < 8 : groups === 8;
}

/** Whether Go's net.ParseIP reads the text as an address (IPv4, or IPv6 without a zone). */
const isIp = (text: string): boolean => IPV4.test(text) || ipv6(text);

/**
 * Go's parseHost (1.26: a bracketed host must be an IPv6 address, a zone allowed; an http(s)
 * host has one colon at most, before its port): the host as written, or null when refused.
 */
function parseHost(scheme: string, host: string): string | null {
  const open = host.lastIndexOf('[');
  if (open > 0) return null;
  if (open === 0) {
    const end = host.lastIndexOf(']');
    if (end < 0 || !validPort(host.slice(end + 1))) return null;
    const inner = host.slice(1, end);
    const zone = inner.indexOf('%25');
    const address = zone < 0 ? inner : inner.slice(0, zone);
    if (!unescapes(address, 'host')) return null;
    if (zone >= 0 && (!unescapes(inner.slice(zone), 'zone') || inner.length === zone + 3)) {
      return null;
    }
    // an escape left in the address unescapes to no IPv6 character
    return !address.includes('%') && ipv6(address) ? host : null;
  }
  const first = host.indexOf(':');
  if (first >= 0) {
    const strict = scheme === 'http' || scheme === 'https';
    if (!validPort(host.slice(strict ? first : host.lastIndexOf(':')))) return null;
  }
  return unescapes(host, 'host') ? host : null;
}

/** Go's URL.Hostname: the host without its port and brackets. */
function hostname(host: string): string {
  let h = host;
  const colon = h.lastIndexOf(':');
  if (colon >= 0 && validPort(h.slice(colon))) h = h.slice(0, colon);
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/**
 * The hostname of a webhook url as Go's url.Parse reads it ('' when it has no authority), or
 * null when url.Parse refuses it.
 */
function webhookUrlHost(raw: string): string | null {
  const hash = raw.indexOf('#');
  const url = hash < 0 ? raw : raw.slice(0, hash);
  if (hash >= 0 && !unescapes(raw.slice(hash + 1), 'other')) return null;
  if (CTL.test(url)) return null;
  if (url === '*') return '';
  if (url.startsWith(':')) return null;
  const scheme = /^([A-Za-z][A-Za-z0-9+\-.]*):/.exec(url);
  let rest = scheme === null ? url : url.slice(scheme[0].length);
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) {
    if (scheme !== null) return '';
    if ((rest.split('/')[0] ?? '').includes(':')) return null;
  }
  let host = '';
  if (rest.startsWith('//') && (scheme !== null || !rest.startsWith('///'))) {
    const authority = rest.slice(2).split('/')[0] ?? '';
    rest = rest.slice(2 + authority.length);
    const at = authority.lastIndexOf('@');
    const parsed = parseHost((scheme?.[1] ?? '').toLowerCase(), authority.slice(at + 1));
    if (parsed === null) return null;
    const user = at < 0 ? '' : authority.slice(0, at);
    if (!USERINFO.test(user) || !unescapes(user, 'other')) return null;
    host = hostname(parsed);
  }
  return unescapes(rest, 'other') ? host : null;
}

/** What istioctl says of one webhook's clientConfig, if anything. */
function judge(clientConfig: Raw | null): { key: Key; url: string; problem: string } | null {
  const url = clientConfig?.url;
  if (url === undefined || url === null) {
    const service = clientConfig?.service;
    return service === undefined || service === null
      ? { key: 'invalidExternalControlPlane', url: '', problem: 'is blank' }
      : null;
  }
  if (typeof url !== 'string') return null;
  const host = webhookUrlHost(url);
  if (host === null) {
    return {
      key: 'invalidExternalControlPlane',
      url,
      problem: 'was provided in an invalid format',
    };
  }
  return isIp(host) ? { key: 'addressIsNotAHostname', url, problem: 'is an IP address' } : null;
}

function configFindings(o: KubeObject, kind: string): Finding[] {
  if (!isIstioWebhook(kind, o.metadata.name)) return [];
  const webhooks = list((o as KubeObject & { webhooks?: unknown }).webhooks);
  const seen = new Set<string>();
  return webhooks.flatMap((w, i): Finding[] => {
    const hook = obj(w);
    const clientConfig = hook?.clientConfig ?? null;
    // a clientConfig of another shape makes the object unreadable to istioctl
    if (hook === null || (clientConfig !== null && obj(clientConfig) === null)) return [];
    const verdict = judge(obj(clientConfig));
    if (verdict === null) return [];
    const name = str(hook.name) ?? '';
    const dedupe = JSON.stringify([verdict.key, verdict.url, name]);
    if (seen.has(dedupe)) return [];
    seen.add(dedupe);
    return [
      {
        code: CATALOG.code[verdict.key],
        severity: CATALOG.byKey[verdict.key].severity,
        subject: { kind, name: o.metadata.name },
        part: { kind: 'field', name: `webhooks[${i}]` },
        evidence: { webhook: name, url: verdict.url || null, problem: verdict.problem },
        fix: {
          why:
            verdict.key === 'addressIsNotAHostname'
              ? "Give the webhook's clientConfig.url a hostname that resolves to the external control plane's gateway (and is in its certificate), not an IP address."
              : "Set the webhook's clientConfig.url to the external control plane's address (https://HOST:15017/...), or clientConfig.service for an in-cluster istiod.",
        },
      },
    ];
  });
}

const KINDS = ['ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration'];

export const EXTERNAL_CONTROL_PLANE = defineRule({
  id: 'external-control-plane',
  analyzer: 'externalcontrolplane.ExternalControlPlaneAnalyzer',
  catalog: CATALOG,
  claims: [
    { code: 'IST0163', kinds: KINDS },
    { code: 'IST0164', kinds: KINDS },
  ],
  reads: KINDS,
  perObject: true,
  check(ctx) {
    return KINDS.flatMap((kind) => ctx.objects(kind).flatMap((o) => configFindings(o, kind)));
  },
});
