import type { CliCommand, CliIO } from './io';
import { EXIT_OK, EXIT_USAGE, emptyArgumentError, terminalText } from './io';

/** A command's module: what it runs, and its usage (what `--help` prints). */
interface CommandModule {
  run: CliCommand;
  USAGE: string;
}

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  timeline: {
    summary:
      'timeline FILE [--mesh-config FILE] [--json]   sidecar startup/shutdown verdicts (pods, or kubectl describe pod text)',
    load: () => import('./commands/timeline'),
  },
  clusters: {
    summary:
      'clusters FILE [--json] [--history H]          istioctl proxy-config cluster/endpoint table',
    load: () => import('./commands/clusters'),
  },
  accesslog: {
    summary: 'accesslog LOG [--json] [--format F]           access-log parse summary',
    load: () => import('./commands/accesslog'),
  },
  findings: {
    summary: 'findings PATH... [--json|--format sarif] [-S]  istioctl-style checks on manifests',
    load: () => import('./commands/findings'),
  },
  attribute: {
    summary: 'attribute LOG --history FILE [--json]         map upstream IPs to pods in time',
    load: () => import('./commands/attribute'),
  },
  gather: {
    summary:
      'gather -o FILE [--namespace N] [--since 30m]  a cluster as an istioctl bug-report archive',
    load: () => import('./commands/gather'),
  },
  open: {
    summary:
      'open ARCHIVE|DIR... [--port N] [--no-live]     the dashboard on istioctl bug-report archives',
    load: () => import('./commands/open'),
  },
  report: {
    summary: 'report --url URL [--out DIR] [--pdf] [...]    screenshot report of a running meshdx',
    load: () => import('./commands/report'),
  },
  mcp: {
    summary: 'mcp --url URL [--listen PORT] [--token-file F] read-only MCP server over a dashboard',
    load: () => import('./commands/mcp'),
  },
};

function usage(): string {
  const lines = Object.values(COMMANDS).map((c) => `  meshdx ${c.summary}`);
  return `usage:\n${lines.join('\n')}\n  meshdx COMMAND --help                                the options of one command\n`;
}

export async function main(argv: string[], given: CliIO): Promise<number> {
  // what an input holds reaches the terminal with its control bytes escaped (text only: the
  // bytes a command writes are text it built itself)
  const io: CliIO = {
    ...given,
    stdout: (t) => given.stdout(typeof t === 'string' ? terminalText(t) : t),
    stderr: (t) => given.stderr(terminalText(t)),
  };
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return EXIT_OK;
  }
  // no command is a wrong use: the usage goes where errors go, as for an unknown one
  if (!name) {
    io.stderr(`meshdx: a COMMAND is needed\n${usage()}`);
    return EXIT_USAGE;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const what = name.startsWith('-') ? `unknown option ${name}` : `unknown command "${name}"`;
    io.stderr(`meshdx: ${what}\n${usage()}`);
    return EXIT_USAGE;
  }
  const mod = await command.load();
  // `-h`/`--help` among the options asks for the command's usage, never names a file (`./-h`
  // does, or `-- -h`)
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (options.includes('--help') || options.includes('-h')) {
    io.stdout(mod.USAGE);
    return EXIT_OK;
  }
  const empty = emptyArgumentError(rest);
  if (empty) {
    io.stderr(`meshdx ${name}: ${empty}\n${mod.USAGE}`);
    return EXIT_USAGE;
  }
  return mod.run(rest, io);
}
