/**
 * The arguments every harness starts the production dashboard with, as `npm start` does.
 *
 * Node closes an idle keep-alive connection after 5 s, and Node's own HTTP client (Playwright's
 * request context among them) drops an idle socket after the same 5 s: a request sent on a
 * socket the server is closing at that instant fails with ECONNRESET. A proxy in front of the
 * dashboard (kubectl port-forward, an ingress with a 60 s idle timeout) meets the same race.
 * The server keeps idle connections longer than such clients do.
 */
export const KEEP_ALIVE_MS = 65_000;

export function nextStartArgs(port: number, host = '127.0.0.1'): string[] {
  return ['start', '-p', String(port), '-H', host, '--keepAliveTimeout', String(KEEP_ALIVE_MS)];
}
