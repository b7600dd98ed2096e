/**
 * Who may send access logs to the receiver: a pod whose namespace the rule admits (the peer
 * address resolved to the pod that holds it now), or a peer inside one of the rule's CIDRs (an
 * OpenTelemetry Collector, or a node address). Everything else is refused, with the reason.
 */
import { normalizeIp } from '../accesslog/address';
import { podKey } from '../refs/pod-ref';

export interface Cidr {
  text: string;
  /** The network as a big integer, its prefix length and whether it is IPv6. */
  net: bigint;
  bits: number;
  v6: boolean;
}

export interface AllowRule {
  /**
   * Namespaces whose pods may send: a list, or `meshed` (every pod that runs an Istio proxy,
   * whatever its namespace: the senders Istio's envoyOtelAls provider configures).
   */
  namespaces: 'meshed' | ReadonlySet<string>;
  cidrs: readonly Cidr[];
}

/** The pod holding the peer address now, as the cluster cache knows it. */
export interface PeerPod {
  namespace: string;
  name: string;
  meshed: boolean;
}

export type SenderVerdict =
  { allowed: true; via: 'pod' | 'cidr'; pod: PeerPod | null } | { allowed: false; reason: string };

function ipToBigInt(ip: string): { value: bigint; v6: boolean } | null {
  const n = normalizeIp(ip);
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(n);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return null;
    return { value: parts.reduce((a, p) => (a << 8n) | BigInt(p), 0n), v6: false };
  }
  if (!/^[0-9a-f:]+$/.test(n) || n.split('::').length > 2) return null;
  const [head, tail] = n.includes('::') ? n.split('::') : [n, null];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = tail === null ? 0 : 8 - h.length - t.length;
  if (fill < 0 || (tail === null && h.length !== 8)) return null;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return { value: groups.reduce((a, g) => (a << 16n) | BigInt(parseInt(g, 16)), 0n), v6: true };
}

/** `10.0.0.0/8`, `fd00::/8`, or a bare address (a /32 or /128). Throws naming the problem. */
export function parseCidr(text: string): Cidr {
  const [addr, len, extra] = text.trim().split('/');
  const ip = addr ? ipToBigInt(addr) : null;
  if (!ip || extra !== undefined) throw new Error(`"${text}" is not a CIDR (10.0.0.0/8, fd00::/8)`);
  const max = ip.v6 ? 128 : 32;
  const bits = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!(bits >= 0 && bits <= max)) throw new Error(`"${text}": prefix length must be 0..${max}`);
  const shift = BigInt(max - bits);
  return { text: text.trim(), net: (ip.value >> shift) << shift, bits, v6: ip.v6 };
}

export function inCidr(ip: string, c: Cidr): boolean {
  const v = ipToBigInt(ip);
  if (!v || v.v6 !== c.v6) return false;
  const shift = BigInt((c.v6 ? 128 : 32) - c.bits);
  return (v.value >> shift) << shift === c.net;
}

const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The rule from settings: namespaces as a comma-separated list (or `meshed`, the default),
 * CIDRs comma-separated. Throws naming the first bad entry.
 */
export function parseAllowRule(
  namespaces: string | undefined,
  cidrs: string | undefined,
): AllowRule {
  const ns = (namespaces ?? 'meshed')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let rule: AllowRule['namespaces'];
  if (ns.length === 1 && ns[0] === 'meshed') rule = 'meshed';
  else {
    const bad = ns.find((n) => !NAMESPACE.test(n));
    if (bad !== undefined) throw new Error(`"${bad}" is not a namespace name (or use "meshed")`);
    rule = new Set(ns);
  }
  const list = (cidrs ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(parseCidr);
  return { namespaces: rule, cidrs: list };
}

/** Whether a sender may send: its peer IP, and the pod that holds that IP now (if any). */
export function judgeSender(
  rule: AllowRule,
  peerIp: string | null,
  pod: PeerPod | null,
): SenderVerdict {
  if (peerIp === null) return { allowed: false, reason: 'the peer address is unknown' };
  if (pod) {
    const ok = rule.namespaces === 'meshed' ? pod.meshed : rule.namespaces.has(pod.namespace);
    if (ok) return { allowed: true, via: 'pod', pod };
  }
  const cidr = rule.cidrs.find((c) => inCidr(peerIp, c));
  if (cidr) return { allowed: true, via: 'cidr', pod };
  if (pod)
    return {
      allowed: false,
      reason:
        rule.namespaces === 'meshed'
          ? `pod ${podKey(pod.namespace, pod.name)} (${peerIp}) runs no Istio proxy`
          : `namespace ${pod.namespace} (pod ${pod.name}, ${peerIp}) is not allowed to send access logs`,
    };
  return { allowed: false, reason: `${peerIp} is no pod meshdx knows and in no allowed CIDR` };
}
