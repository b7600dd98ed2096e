/**
 * `meshdx mcp --url URL [--token-file F] [--listen PORT [--host H]]`: a read-only Model Context
 * Protocol server over a running meshdx dashboard (cli/mcp/). On stdio by default (an assistant
 * spawns it), or streamable HTTP on PORT's `/mcp`, where each caller's `Authorization: Bearer`
 * token signs in to the dashboard as that caller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { normaliseBaseUrl } from '../report/options';
import { EXIT_OK, EXIT_USAGE, guardedCommand, optionsProblem, type CliCommand } from '../io';
import { serveHttp, serveStdio } from '../mcp/serve';

export const USAGE = `usage: meshdx mcp --url URL [--token-file FILE] [--listen PORT [--host H]]

A read-only MCP server over a running meshdx dashboard: tools that answer from the dashboard's
own views (who held an IP, why a pod failed at start, unscoped proxies, findings, a link's
view), each with its link into the dashboard. Nothing it does writes to the cluster.

  --url URL          the dashboard (e.g. http://127.0.0.1:3000 through kubectl port-forward)
  --token-file FILE  on stdio: a Kubernetes bearer token to sign in with (MESHDX_AUTH=token)
  --listen PORT      serve streamable HTTP on PORT (/mcp) instead of stdio; each caller's
                     Authorization: Bearer token signs in as that caller
  --host H           the address to listen on (default 127.0.0.1)
`;

const OPTIONS = {
  url: { type: 'string' },
  'token-file': { type: 'string' },
  listen: { type: 'string' },
  host: { type: 'string' },
} as const;

export interface McpOptions {
  url: string;
  token: string | null;
  listen: number | null;
  host: string;
}

/** The options of `meshdx mcp`, or what is wrong with them (a usage error). */
export function parseMcpArgs(argv: string[], cwd: string): McpOptions | { error: string } {
  const problem = optionsProblem(argv, OPTIONS);
  if (problem) return { error: problem };
  const { values } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false });
  if (values.url === undefined)
    return { error: '--url is required (the dashboard, e.g. http://127.0.0.1:3000)' };
  const base = normaliseBaseUrl(values.url);
  if ('error' in base) return { error: base.error };
  let listen: number | null = null;
  if (values.listen !== undefined) {
    const n = Number(values.listen);
    if (!/^\d+$/.test(values.listen) || n < 1 || n > 65535)
      return { error: `--listen wants a port number from 1 to 65535, got "${values.listen}"` };
    listen = n;
  }
  if (values.host !== undefined && listen === null) return { error: '--host is for --listen' };
  let token: string | null = null;
  if (values['token-file'] !== undefined) {
    if (listen !== null)
      return {
        error:
          '--token-file is for stdio: over HTTP each caller sends its own Authorization: Bearer token',
      };
    try {
      token = fs.readFileSync(path.resolve(cwd, values['token-file']), 'utf8').trim();
    } catch (e) {
      return {
        error: `--token-file ${values['token-file']}: ${(e as NodeJS.ErrnoException).code ?? 'cannot be read'}`,
      };
    }
    if (!/^[\x21-\x7e]{1,16384}$/.test(token))
      return {
        error: `--token-file ${values['token-file']} holds no bearer token (one line of printable characters)`,
      };
  }
  return { url: base.url, token, listen, host: values.host ?? '127.0.0.1' };
}

const VERSION = '0.1.0';

export const run: CliCommand = async (argv, io) => {
  const parsed = parseMcpArgs(argv, io.cwd);
  if ('error' in parsed) {
    io.stderr(`meshdx mcp: ${parsed.error}\n${USAGE}`);
    return EXIT_USAGE;
  }
  return guardedCommand('mcp', io, async () => {
    if (parsed.listen === null) {
      // stdout is the protocol's: what the command says goes to stderr
      await serveStdio(parsed.url, parsed.token, VERSION);
      return EXIT_OK;
    }
    const srv = await serveHttp(parsed.url, parsed.host, parsed.listen, VERSION);
    io.stderr(`meshdx mcp: serving MCP on ${srv.url} for the dashboard at ${parsed.url}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await srv.close();
    return EXIT_OK;
  });
};
