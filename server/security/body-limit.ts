/**
 * Request bodies bounded at the Node server, before Next reads them: Next buffers a body for
 * proxy.ts and waits for its end before it answers, so a POST declaring 200 MB and sending 3
 * bytes hung for minutes whatever the route said. A declared length over the limit is answered
 * 413 here at once (after the Host check, with the security headers) and the connection closed;
 * a body without a declared length is bounded by the route's read limit and by the server's
 * request timeout (both installed on the dashboard's server by dashboard-server.ts).
 */
import http from 'node:http';
import { loadSecurityConfig } from './config';
import { checkRequest, refusalBody } from './guard';
import { buildCsp, newNonce, securityHeaders } from './headers';

/** The largest body any route takes (the access-log upload's 8 MiB). */
export const MAX_REQUEST_BODY_BYTES = 8 * 1024 * 1024;
/** A whole request, headers and body, must arrive within this (Node's default is 300 s). */
export const REQUEST_TIMEOUT_MS = 60_000;

/** Why a request's declared body is refused before reading it, or null. */
export function declaredBodyProblem(
  contentLength: string | undefined,
  maxBytes: number = MAX_REQUEST_BODY_BYTES,
): { status: 413; code: 'PAYLOAD_TOO_LARGE'; message: string; hint: string } | null {
  if (contentLength === undefined || !/^\d+$/.test(contentLength.trim())) return null;
  const declared = Number(contentLength.trim());
  if (declared <= maxBytes) return null;
  return {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `Content-Length declares ${declared} bytes, more than the ${maxBytes} bytes meshdx accepts in a request`,
    hint: 'Send less: cut a log to the incident window, or read it with `meshdx attribute LOG --history FILE`.',
  };
}

/** Answers a request whose declared body is over `maxBytes` (true), or leaves it (false). */
export function answerDeclaredBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  maxBytes: number,
): boolean {
  const problem = declaredBodyProblem(req.headers['content-length'], maxBytes);
  if (!problem) return false;
  const pathname = (req.url ?? '/').split('?')[0] ?? '/';
  let status: number = problem.status;
  let body = JSON.stringify({
    error: { code: problem.code, message: problem.message, hint: problem.hint },
  });
  let contentType = 'application/json';
  try {
    // a foreign Host is told so (421) before anything about its body
    const refusal = checkRequest(
      {
        method: req.method ?? 'GET',
        pathname,
        host: req.headers.host ?? null,
        origin: req.headers.origin ?? null,
        secFetchSite: (req.headers['sec-fetch-site'] as string | undefined) ?? null,
      },
      loadSecurityConfig().allowlist,
    );
    if (refusal) {
      status = refusal.status;
      ({ body, contentType } = refusalBody(refusal, pathname));
    }
  } catch {
    // an invalid configuration is reported by proxy.ts on every other request; the body is
    // refused all the same
  }
  const headers: Record<string, string> = {
    'Content-Type': contentType,
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
  for (const [name, value] of securityHeaders(buildCsp({ nonce: newNonce() })))
    headers[name] = value;
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
