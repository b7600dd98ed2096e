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
  report: {
    summary: 'report --url URL [--out DIR] [--pdf] [...]    screenshot report of a running meshdx',
    load: () => import('./commands/report'),
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
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage());
    return name ? 0 : EXIT_USAGE;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`meshdx: unknown command "${name}"\n${usage()}`);
    return EXIT_USAGE;
  }
  const mod = await command.load();
  // `-h`/`--help` anywhere asks for the command's usage, never names a file (`./-h` does)
  if (rest.includes('--help') || rest.includes('-h')) {
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
