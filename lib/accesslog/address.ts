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

function isIpv4(text: string): boolean {
  const parts = text.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** Canonical form for comparisons: lower-case IPv6, IPv4-mapped IPv6 reduced to IPv4. */
export function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  return mapped?.[1] ?? lower;
}
