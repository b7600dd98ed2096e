/** A socket address as Envoy writes it: `10.0.0.1:8080`, `[2001:db8::1]:8080`, or a bare IP. */
export interface SocketAddress {
  ip: string;
  port: number | null;
}

/** Parses an Envoy address; null for "-", empty, or something that is not an address. */
export function parseAddress(value: string | null | undefined): SocketAddress | null {
  if (!value || value === '-') return null;
  if (value.startsWith('[')) {
    const close = value.indexOf(']');
    if (close < 0) return null;
    const ip = value.slice(1, close);
    const rest = value.slice(close + 1);
    if (!ip.includes(':')) return null;
    if (rest === '') return { ip, port: null };
    if (!rest.startsWith(':')) return null;
    const port = parsePort(rest.slice(1));
    return port === null ? null : { ip, port };
  }
  const colons = countChar(value, ':');
  if (colons === 0) return isIpv4(value) ? { ip: value, port: null } : null;
  if (colons === 1) {
    const at = value.indexOf(':');
    const ip = value.slice(0, at);
    const port = parsePort(value.slice(at + 1));
    return isIpv4(ip) && port !== null ? { ip, port } : null;
  }
  // Several colons without brackets: a bare IPv6 address (Envoy brackets it when a port follows).
  return /^[0-9a-fA-F:.]+$/.test(value) ? { ip: value, port: null } : null;
}

function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}

function countChar(text: string, ch: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text[i] === ch) n++;
  return n;
}

/** Four dot-separated decimal parts of at most 255 (char by char: it runs for every request). */
function isIpv4(text: string): boolean {
  let parts = 0;
  let digits = 0;
  let value = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 46;
    if (c === 46 /* . */) {
      if (digits === 0 || value > 255 || ++parts > 4) return false;
      digits = 0;
      value = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      value = value * 10 + (c - 48);
      digits++;
    } else return false;
  }
  return parts === 4;
}

/**
 * Canonical form for comparisons: IPv4-mapped IPv6 reduced to IPv4, and IPv6 in the form
 * Kubernetes writes pod IPs in (RFC 5952: lower case, no leading zeros, the longest run of
 * zero groups as "::"), so `2001:DB8:0:0::1` and `2001:db8::1` are one address.
 */
export function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1] && lower.replace(/ffff:.*$/, '').replace(/[0:]/g, '') === '') return mapped[1];
  if (!lower.includes(':') || lower.includes('.')) return lower;
  const groups = expandIpv6(lower);
  return groups ? compressIpv6(groups) : lower;
}

/** The 8 groups of an IPv6 address without an embedded IPv4 part, or null if malformed. */
function expandIpv6(ip: string): number[] | null {
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const part = (h: string | undefined) => (h ? h.split(':') : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  const all = [...head, ...Array<string>(fill).fill('0'), ...tail];
  if (all.length !== 8 || !all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}

function compressIpv6(groups: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}
