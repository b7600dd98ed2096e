/**
 * The dashboard's Node server, guarded before Next sees a request. Next answers some requests
 * itself before meshdx's proxy.ts runs (a path with a doubled slash or a backslash is a 308 to
 * its normalised form) and reads others in ways proxy.ts cannot see (Node keeps the first of two
 * Host headers and joins two X-Forwarded-User headers with ", "). So, on every request of the
 * dashboard's server:
 *
 * - two Host headers are a 400; a Host meshdx does not answer to is a 421, redirects included;
 * - in header mode, a second user or groups header (one the client sent, passed on by the proxy
 *   next to its own) is a 400 naming the header: the identity is ambiguous;
 * - a declared body over the limit is a 413 (body-limit.ts); the request must arrive in time;
 * - every answer carries the security headers: those proxy.ts set (its CSP with the page's
 *   nonce) are kept, any missing one is added; Node's own 400 to a request it cannot parse too.
 *
 * Servers meshdx runs for another protocol (the OTLP receiver, server/otlp) are marked with
 * `ownProtocol` and left alone: they answer in their protocol's shapes.
 */
import http from 'node:http';
import type net from 'node:net';
import { loadEnv } from '../env';
import { loadSecurityConfig } from './config';
import { MAX_REQUEST_BODY_BYTES, REQUEST_TIMEOUT_MS, answerDeclaredBody } from './body-limit';
import { checkRequest, refusalBody, type Refusal } from './guard';
import type { HostAllowlist } from './hosts';
import { buildCsp, newNonce, securityHeaders } from './headers';

const OWN_PROTOCOL = Symbol.for('meshdx.ownProtocol');

type Marked = http.Server & { [OWN_PROTOCOL]?: true };

/** Marks a server that speaks its own protocol: the dashboard's guards leave it alone. */
export function ownProtocol(server: http.Server): void {
  (server as Marked)[OWN_PROTOCOL] = true;
}

/** Whether a server is the dashboard's (every node:http server not marked `ownProtocol`). */
export function isDashboardServer(server: http.Server): boolean {
  return (server as Marked)[OWN_PROTOCOL] !== true;
}

/** How many times a header (any case) is in the request as sent. */
function occurrences(req: http.IncomingMessage, name: string): number {
  const lower = name.toLowerCase();
  let n = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if ((req.rawHeaders[i] as string).toLowerCase() === lower) n++;
  return n;
}

/** The header names of writeHead's headers argument (an object, or a flat or paired array). */
function namesIn(headers: unknown): Set<string> {
  const out = new Set<string>();
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) {
      for (const pair of headers as unknown[][]) out.add(String(pair[0]).toLowerCase());
    } else {
      for (let i = 0; i < headers.length; i += 2) out.add(String(headers[i]).toLowerCase());
    }
  } else if (headers !== null && typeof headers === 'object') {
    for (const k of Object.keys(headers)) out.add(k.toLowerCase());
  }
  return out;
}

/** Adds the security headers an answer lacks when its head is written, whoever writes it. */
function withSecurityHeaders(res: http.ServerResponse): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    const headers = typeof args[1] === 'string' ? args[2] : args[1];
    const given = namesIn(headers);
    const missing = (name: string) => !given.has(name.toLowerCase()) && !this.hasHeader(name);
    if (!this.headersSent) {
      const csp = missing('Content-Security-Policy') ? buildCsp({ nonce: newNonce() }) : '';
      for (const [name, value] of securityHeaders(csp))
        if (missing(name)) this.setHeader(name, value);
    }
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as http.ServerResponse['writeHead'];
}

function refuse(req: http.IncomingMessage, res: http.ServerResponse, r: Refusal): void {
  const pathname = (req.url ?? '/').split('?')[0] ?? '/';
  const { contentType, body } = refusalBody(r, pathname);
  res.writeHead(r.status, {
    'Content-Type': contentType,
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...r.headers,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** What the guards read of the settings, kept on the server while the settings are the same. */
interface GuardSettings {
  key: string;
  /** The Host allowlist, or null while MESHDX_ALLOWED_HOSTS is invalid (proxy.ts answers 500). */
  allowlist: HostAllowlist | null;
  /** The header names whose second copy makes the identity ambiguous (header mode), or none. */
  identityHeaders: string[];
}

const SETTINGS = Symbol.for('meshdx.dashboardGuardSettings');

function guardSettings(server: http.Server): GuardSettings {
  const env = process.env;
  const key = [
    env.MESHDX_ALLOWED_HOSTS,
    env.MESHDX_AUTH,
    env.MESHDX_AUTH_USER_HEADER,
    env.MESHDX_AUTH_GROUPS_HEADER,
  ].join('\0');
  const held = server as http.Server & { [SETTINGS]?: GuardSettings };
  const cached = held[SETTINGS];
  if (cached?.key === key) return cached;
  let allowlist: HostAllowlist | null = null;
  try {
    allowlist = loadSecurityConfig().allowlist;
  } catch {
    // proxy.ts answers every request with the setting's problem
  }
  let identityHeaders: string[] = [];
  try {
    const e = loadEnv();
    if (e.MESHDX_AUTH === 'header')
      identityHeaders = [e.MESHDX_AUTH_USER_HEADER, e.MESHDX_AUTH_GROUPS_HEADER];
  } catch {
    // an invalid configuration is answered by proxy.ts on every request
  }
  const settings = { key, allowlist, identityHeaders };
  held[SETTINGS] = settings;
  return settings;
}

/** Why the dashboard refuses a request before Next sees it, or null. */
function dashboardRefusal(req: http.IncomingMessage, settings: GuardSettings): Refusal | null {
  const hosts = occurrences(req, 'host');
  if (hosts > 1)
    return {
      status: 400,
      code: 'INVALID_REQUEST',
      message: `the request has ${hosts} Host headers`,
      hint: 'Send one Host header: a request naming two hosts is not answered.',
    };
  for (const name of settings.identityHeaders) {
    const n = occurrences(req, name);
    if (n > 1)
      return {
        status: 400,
        code: 'AMBIGUOUS_PROXY_IDENTITY',
        message: `the request has ${n} ${name} headers: meshdx runs with MESHDX_AUTH=header and takes the identity from one`,
        hint: `Have the authenticating proxy replace any ${name} the client sends instead of adding its own next to it (oauth2-proxy does); meshdx must not be reachable around it.`,
      };
  }
  if (settings.allowlist === null) return null;
  const refusal = checkRequest(
    { method: 'GET', pathname: '/', host: req.headers.host ?? null, origin: null },
    settings.allowlist,
  );
  return refusal?.code === 'HOST_NOT_ALLOWED' ? refusal : null;
}

type Emit = (event: string | symbol, ...args: unknown[]) => boolean;

/** Node's own answers to a request it cannot parse (as its default clientError handler picks). */
const CLIENT_ERRORS: ReadonlyMap<string, [number, string]> = new Map([
  ['HPE_HEADER_OVERFLOW', [431, 'Request Header Fields Too Large']],
  ['HPE_CHUNK_EXTENSIONS_OVERFLOW', [413, 'Payload Too Large']],
  ['ERR_HTTP_REQUEST_TIMEOUT', [408, 'Request Timeout']],
]);

/**
 * A request Node could not parse (a malformed head, headers too large, too slow): Node's answer,
 * with the security headers, then the connection closed.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: net.Socket): void {
  const sent = (socket as net.Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !sent?.headersSent) {
    const [status, text] = CLIENT_ERRORS.get(err.code ?? '') ?? [400, 'Bad Request'];
    const headers = securityHeaders(buildCsp({ nonce: newNonce() }))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\n${headers}Content-Length: 0\r\nConnection: close\r\n\r\n`,
    );
  }
  socket.destroy(err);
}

/** Installs the guards on the dashboard's node:http server (once per process). */
export function guardDashboardServer(maxBytes: number = MAX_REQUEST_BODY_BYTES): void {
  const proto = http.Server.prototype as http.Server & { __meshdxDashboard?: boolean };
  if (proto.__meshdxDashboard) return;
  proto.__meshdxDashboard = true;
  const emit = proto.emit as Emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request' && isDashboardServer(this)) {
      if (this.requestTimeout === 0 || this.requestTimeout > REQUEST_TIMEOUT_MS)
        this.requestTimeout = REQUEST_TIMEOUT_MS;
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      withSecurityHeaders(res);
      const refusal = dashboardRefusal(req, guardSettings(this));
      if (refusal) {
        refuse(req, res, refusal);
        return true;
      }
      if (answerDeclaredBody(req, res, maxBytes)) return true;
    }
    // Node answers a request it cannot parse itself, unless the server has a handler of its own
    if (event === 'clientError' && isDashboardServer(this) && this.listenerCount(event) === 0) {
      const [err, socket] = args as [NodeJS.ErrnoException, net.Socket];
      answerClientError(err, socket);
      return true;
    }
    return emit.call(this, event, ...args);
  } as http.Server['emit'];
}
