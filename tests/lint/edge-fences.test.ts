import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
// only the fences: other rules (import graphs) read the probe's path from disk, where it is not
const FENCES = new Set([
  'no-restricted-imports',
  '@typescript-eslint/no-restricted-imports',
  'no-restricted-globals',
]);
const eslint = new ESLint({ cwd: root, ruleFilter: ({ ruleId }) => FENCES.has(ruleId) });

/** The imports a fence refuses in `code` as if it were `file`, each with the rule's message. */
async function refused(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId !== null && FENCES.has(m.ruleId))
    .map((m) => m.message);
}

describe('cli/ is fenced from server/ (eslint.config.mjs)', () => {
  it('refuses server/ relative, through @/, and type-only', async () => {
    const code = [
      "import { openHistoryStore } from '../../server/store/history-store';",
      "import { runtimeFor } from '@/server/runtime/registry';",
      "import type { RequestScope } from '../server/auth/identity';",
      'export const all = [openHistoryStore, runtimeFor] as unknown as RequestScope[];',
    ].join('\n');
    const said = await refused('cli/commands/probe.ts', code);
    expect(said).toHaveLength(3);
    for (const m of said) expect(m).toMatch(/cli\/ must not import server\//);
  });

  it('lets it use lib/ and its own modules, and lets its tests build fixtures with server/', async () => {
    const code = [
      "import { parseAccessLog } from '../../lib/accesslog/parser';",
      "import { io } from '../io';",
      // the MCP SDK's server side is a package (meshdx mcp), not meshdx's server/
      "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
      'export const all = [parseAccessLog, io, McpServer];',
    ].join('\n');
    expect(await refused('cli/commands/probe.ts', code)).toEqual([]);
    const test =
      "import { openHistoryStore } from '../../server/store/history-store';\nexport const s = openHistoryStore;\n";
    expect(await refused('cli/commands/probe.test.ts', test)).toEqual([]);
  });
});

describe('server/ is fenced from app/ and components/ (eslint.config.mjs)', () => {
  it('refuses app/ and components/, relative, through @/, and type-only', async () => {
    const code = [
      "import { routeQuery } from '../../app/api/_lib/params';",
      "import { fleetQuery } from '@/components/proxies/api';",
      "import type { Prefetch } from '../../app/_lib/page-opening';",
      "import { ErrorPanel } from '../../components/ui/ErrorPanel';",
      'export const all = [routeQuery, fleetQuery, ErrorPanel] as unknown as Prefetch[];',
    ].join('\n');
    const said = await refused('server/screens/probe.ts', code);
    expect(said).toHaveLength(4);
    for (const m of said) expect(m).toMatch(/server\/ must not import app\/ or components\//);
  });

  it("holds in server/sim too, beside the simulator's own fence", async () => {
    const code = [
      "import { Nav } from '../../../components/ui/Nav';",
      "import { proxyFigures } from '../../../lib/scoping/predict';",
      'export const all = [Nav, proxyFigures];',
    ].join('\n');
    const said = await refused('server/sim/mesh/probe.ts', code);
    expect(said).toHaveLength(2);
    expect(
      said.filter((m) => /server\/ must not import app\/ or components\//.test(m)),
    ).toHaveLength(1);
    expect(said.filter((m) => /server\/sim plays istiod/.test(m))).toHaveLength(1);
  });

  it('leaves lib/ and server/ imports alone', async () => {
    const code = [
      "import { withContext } from '../../lib/api/context';",
      "import { runtimeFor } from '../runtime/registry';",
      'export const all = [withContext, runtimeFor];',
    ].join('\n');
    expect(await refused('server/screens/probe.ts', code)).toEqual([]);
  });
});

describe("components/ ask the server only through their view's api.ts (eslint.config.mjs)", () => {
  const asks = [
    "export const a = () => fetch('/api/findings');",
    "export const b = () => new EventSource('/api/incidents/live');",
    'export const c = () => new XMLHttpRequest();',
    "export const d = () => new WebSocket('ws://x');",
  ].join('\n');

  it('refuses fetch, EventSource, XMLHttpRequest and WebSocket in a component', async () => {
    const said = await refused('components/findings/Probe.tsx', asks);
    expect(said).toHaveLength(4);
    for (const m of said) expect(m).toMatch(/a view's requests are in its api\.ts/);
  });

  it("lets a view's api.ts and the shared fetchJson ask", async () => {
    expect(await refused('components/findings/api.ts', asks)).toEqual([]);
    expect(await refused('components/data/fetchJson.ts', asks)).toEqual([]);
  });
});
