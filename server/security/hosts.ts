/**
 * The Host allowlist: which names meshdx answers to. A dashboard reached through
 * `kubectl port-forward` listens on loopback, and a page on any web site could make the
 * browser send requests to it under its own name (DNS rebinding: evil.example resolves to
 * 127.0.0.1). The browser then sends `Host: evil.example:3000`, which is what this refuses.
 */

/** A Host header (or allowlist entry) reduced to the name it is compared by. */
export interface ParsedHost {
  /** Lower case, no trailing dot; IPv6 literals keep their brackets: `[::1]`. */
  hostname: string;
  port: number | undefined;
}

/** The names meshdx answers to on any port, unless `any` (the `*` setting) turns the check off. */
export interface HostAllowlist {
  readonly any: boolean;
  readonly hosts: ReadonlySet<string>;
}

/** Loopback names: what `kubectl port-forward`, `npm run demo`, the e2e suite and `meshdx report` use. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

// A Host header is `host[:port]`: no user info, path, spaces or non-ASCII (RFC 9110 7.2).
const HOST_CHARS = /^[a-z0-9.\-_:[\]]+$/i;

/**
 * Parses a Host header value. Returns null for anything a browser or a well-behaved client
 * would not send (empty, user info, path, bad port, malformed IPv6 literal).
 */
export function parseHost(value: string | null | undefined): ParsedHost | null {
  if (value === null || value === undefined) return null;
  const raw = value.trim();
  if (raw === '' || raw.length > 261 || !HOST_CHARS.test(raw)) return null;
  let name: string;
  let portText: string | undefined;
  if (raw.startsWith('[')) {
    const close = raw.indexOf(']');
    if (close < 0) return null;
    name = raw.slice(0, close + 1);
    const rest = raw.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return null;
    portText = rest === '' ? undefined : rest.slice(1);
  } else {
    const parts = raw.split(':');
    if (parts.length > 2) return null; // a bare IPv6 address is not a valid Host
    name = parts[0] ?? '';
    portText = parts[1];
  }
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText)) return null;
    port = Number(portText);
    if (port > 65535) return null;
  }
  const hostname = normalizeName(name);
  return hostname === null ? null : { hostname, port };
}

/** Lower case, one trailing dot dropped, IPv6 literals canonical (`[0:0::1]` -> `[::1]`). */
function normalizeName(name: string): string | null {
  let n = name.toLowerCase();
  if (n.endsWith('.')) n = n.slice(0, -1);
  if (n === '') return null;
  if (n.startsWith('[')) {
    if (!n.endsWith(']')) return null;
    try {
      // the URL parser canonicalises IPv6 literals and rejects malformed ones
      return new URL(`http://${n}/`).hostname;
    } catch {
      return null;
    }
  }
  if (n.includes('[') || n.includes(']')) return null;
  if (n.startsWith('.') || n.includes('..')) return null;
  return n;
}

/** Whether a Host header names one of the allowed hosts (any port). */
export function isHostAllowed(header: string | null | undefined, allow: HostAllowlist): boolean {
  if (allow.any) return true;
  const h = parseHost(header);
  return h !== null && allow.hosts.has(h.hostname);
}

/**
 * Whether an `Origin` header is acceptable for a request that changes or costs something
 * (POST): absent (not a browser, or same-origin navigation in older browsers), or an http(s)
 * origin whose host is allowed. `null` (opaque origins: sandboxed frames, file://) is refused.
 */
export function isOriginAllowed(origin: string | null | undefined, allow: HostAllowlist): boolean {
  if (origin === null || origin === undefined || origin === '') return true;
  if (allow.any) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return isHostAllowed(url.host, allow);
}
