/**
 * The tools of `meshdx mcp` on an MCP server: their names, titles, input schemas (zod: every
 * value is handed to the dashboard's route as given, so a bad one is the route's own 400) and the
 * read-only annotations. Each tool asks the dashboard given (cli/mcp/tools.ts, open-link.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Dashboard } from './dashboard';
import { findingsFor, podStartup, toolResult, unscopedProxies, whoHeldIp } from './tools';
import { openLink } from './open-link';

const context = z
  .string()
  .optional()
  .describe("The dashboard's cluster context (its ?context=); absent: the default one.");
const namespace = z.string().optional();

/** The tools' names, as a client lists them. */
export const MCP_TOOL_NAMES = [
  'who_held_ip',
  'pod_startup',
  'unscoped_proxies',
  'findings',
  'open_link',
] as const;

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** Registers every tool on `server`, each asking `dash`. */
export function registerMeshdxTools(server: McpServer, dash: Dashboard): void {
  server.registerTool(
    'who_held_ip',
    {
      title: 'Which pod held an IP at a time, and who was still sending to it',
      description:
        "Incidents' attribution: the pods that held the IP when failing requests were sent to it (from meshdx's pod-IP history, gone pods included), their state then (live, terminating, terminated), and the client proxies that kept sending after the pod's deletion began. Give `at` (5 minutes each side) or a from/to window.",
      inputSchema: {
        ip: z.string().describe('The upstream IP, e.g. 10.244.1.17'),
        at: z.string().optional().describe('The moment: RFC 3339, epoch milliseconds or now-15m'),
        from: z.string().optional().describe('Window start (instead of at)'),
        to: z.string().optional().describe('Window end (instead of at)'),
        namespace: namespace.describe('Only failures of clients in this namespace'),
        service: z.string().optional().describe('Only requests to this service'),
        context,
      },
      annotations: READ_ONLY,
    },
    async (a) => toolResult(await whoHeldIp(dash, a)),
  );
  server.registerTool(
    'pod_startup',
    {
      title: 'Why a pod failed at start',
      description:
        "Timelines' reading of one pod (live or gone): when its proxy became ready against when its app started, restarts, the startup and shutdown verdicts with their evidence and fixes.",
      inputSchema: {
        namespace: z.string(),
        name: z.string().describe("The pod's name"),
        uid: z
          .string()
          .optional()
          .describe('That pod of the name (a deleted one whose namesake runs)'),
        context,
      },
      annotations: READ_ONLY,
    },
    async (a) => toolResult(await podStartup(dash, a)),
  );
  server.registerTool(
    'unscoped_proxies',
    {
      title: 'Which proxies carry the whole mesh, and what Sidecar would fix it',
      description:
        'Proxies no Sidecar selects (they receive every service of the mesh), by namespace and workload, and the Sidecars Scoping proposes from the traffic it observed, with clusters before and after. Nothing is applied: the YAML is for kubectl.',
      inputSchema: { namespace: namespace.describe('Only this namespace'), context },
      annotations: READ_ONLY,
    },
    async (a) => toolResult(await unscopedProxies(dash, a)),
  );
  server.registerTool(
    'findings',
    {
      title: 'What Findings says for a namespace',
      description:
        "meshdx's findings (IST and MDX codes) as the Findings view shows them: grouped worst first with the fix at the scope that fixes them all, and every finding with its evidence.",
      inputSchema: {
        namespace: namespace.describe('The namespace (absent: the whole cluster)'),
        code: z.string().optional().describe('One code, e.g. IST0118 or MDX0101'),
        severity: z.string().optional().describe('error, warning or info'),
        context,
      },
      annotations: READ_ONLY,
    },
    async (a) => toolResult(await findingsFor(dash, a)),
  );
  server.registerTool(
    'open_link',
    {
      title: 'What a meshdx link shows',
      description:
        'Reads a dashboard URL (an incident link pasted in a ticket: /incidents?..., /timelines?pod=..., /pods/NS/NAME, /findings?..., /proxies?..., /scoping?..., a Share link /snapshots/ID) and answers what that view says, with its own query. Only its path and query are used: it is asked of the dashboard this server reads.',
      inputSchema: { url: z.string().describe('The link, absolute or from /') },
      annotations: READ_ONLY,
    },
    async (a) => toolResult(await openLink(dash, a.url)),
  );
}
