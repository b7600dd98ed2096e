/**
 * Methods the Fetch standard forbids (TRACE, TRACK, CONNECT): Next builds a `Request` for every
 * request before meshdx's proxy.ts sees it, and that constructor throws on these, so Next
 * answered 500 with a stack in the log. They are answered here instead, at the Node server,
 * with the 405 and `Allow` every other unsupported method gets (server/security/guard.ts).
 */
import http from 'node:http';

export const FETCH_FORBIDDEN_METHODS: ReadonlySet<string> = new Set(['TRACE', 'TRACK', 'CONNECT']);

type Emit = (event: string | symbol, ...args: unknown[]) => boolean;

/**
 * Installs the answer on the dashboard's node:http server (once): `isDashboard` leaves out the
 * servers of other protocols (the OTLP receiver answers these methods in its own shape).
 */
export function refuseForbiddenMethods(
  allowFor: (pathname: string) => string[],
  isDashboard: (server: http.Server) => boolean,
): void {
  const proto = http.Server.prototype as http.Server & { __meshdxMethods?: boolean };
  if (proto.__meshdxMethods) return;
  proto.__meshdxMethods = true;
  const emit = proto.emit as Emit;
  proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request' && isDashboard(this)) {
      const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
      const method = (req.method ?? '').toUpperCase();
      if (FETCH_FORBIDDEN_METHODS.has(method)) {
        const pathname = (req.url ?? '/').split('?')[0] ?? '/';
        const allow = allowFor(pathname).join(', ');
        res.writeHead(405, {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
          Allow: allow,
        });
        res.end(
          JSON.stringify({
            error: {
              code: 'METHOD_NOT_ALLOWED',
              message: `${method} is not allowed on ${pathname}`,
              hint: `Use ${allow.replace(', OPTIONS', '').replace(', ', ' or ')}.`,
            },
          }),
        );
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as http.Server['emit'];
}
