import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import type { CliCommand, CliIO } from '../io';
import { EXIT_OK, EXIT_USAGE } from '../io';
import { createLineParser } from '../../lib/accesslog/parser';
import {
  createSummaryBuilder,
  type AccessLogSummary,
  type ReasonCount,
} from '../../lib/accesslog/stats';
import type { LineError } from '../../lib/accesslog/types';

export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  values: Map<string, string>;
  problems: string[];
}

/** Minimal argv parser: `--name value`, `--name=value`, boolean `--flag`. */
export function parseArgs(argv: string[], valued: string[], booleans: string[]): ParsedArgs {
  const out: ParsedArgs = { positional: [], flags: new Set(), values: new Map(), problems: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (valued.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) out.problems.push(`--${name} needs a value`);
      else out.values.set(name, value);
    } else if (booleans.includes(name) && eq < 0) out.flags.add(name);
    else out.problems.push(`unknown option ${arg}`);
  }
  return out;
}

/** Checks that a path is a readable regular file; returns an error message or null. */
export function checkReadable(file: string, options: { pipe?: boolean } = {}): string | null {
  try {
    const st = fs.statSync(file);
    // a pipe (`kubectl logs ... | meshdx attribute /dev/stdin`) where the reader can take one
    const piped = options.pipe === true && (st.isFIFO() || st.isCharacterDevice());
    if (!st.isFile() && !piped) return `${file} is not a regular file`;
    fs.accessSync(file, fs.constants.R_OK);
    return null;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return `${file}: no such file`;
    if (code === 'EACCES') return `${file}: permission denied`;
    return `${file}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Streams a file line by line (constant memory), calling fn for each line. */
export async function forEachLine(file: string, fn: (line: string) => void): Promise<void> {
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
  for await (const line of rl) fn(line);
}

const USAGE = "usage: meshdx accesslog LOG [--json] [--format 'ENVOY FORMAT STRING']\n";

export const run: CliCommand = async (argv: string[], io: CliIO): Promise<number> => {
  const args = parseArgs(argv, ['format'], ['json']);
  if (args.problems.length || args.positional.length !== 1) {
    io.stderr(
      `meshdx accesslog: ${args.problems.join('; ') || 'expected exactly one LOG file'}\n${USAGE}`,
    );
    return EXIT_USAGE;
  }
  const file = path.resolve(io.cwd, args.positional[0] as string);
  const unreadable = checkReadable(file);
  if (unreadable) {
    io.stderr(`meshdx accesslog: cannot read log file ${unreadable}\n`);
    return EXIT_USAGE;
  }
  const parser = createLineParser({ format: args.values.get('format') });
  const builder = createSummaryBuilder();
  try {
    await forEachLine(file, (line) => builder.add(parser.push(line)));
  } catch (e) {
    io.stderr(
      `meshdx accesslog: error while reading ${file}: ${e instanceof Error ? e.message : String(e)}\n`,
    );
    return EXIT_USAGE;
  }
  const summary = builder.summary();
  if (args.flags.has('json')) {
    const out = {
      file,
      ...summary,
      firstErrors: builder.firstErrors,
      formatProblems: parser.formatProblems,
    };
    io.stdout(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    io.stdout(
      renderSummary(
        file,
        summary,
        builder.firstErrors,
        parser.formatProblems.map((p) => `format position ${p.position}: ${p.message}`),
      ),
    );
  }
  return EXIT_OK;
};

export function renderSummary(
  file: string,
  s: AccessLogSummary,
  firstErrors: LineError[],
  notes: string[],
): string {
  const lines: string[] = [];
  const errorCount = Object.values(s.errors).reduce((n, r) => n + (r?.count ?? 0), 0);
  const skippedCount = Object.values(s.skipped).reduce((n, r) => n + (r?.count ?? 0), 0);
  lines.push(`${file}`);
  lines.push(
    `lines ${s.lines}  parsed ${s.parsed} (partial ${s.partial}, tcp ${s.tcp})  skipped ${skippedCount}  unreadable ${errorCount}`,
  );
  if (s.firstTime) lines.push(`time range ${s.firstTime} .. ${s.lastTime}`);
  lines.push(`formats: ${entries(s.formats)}`);
  lines.push(`codes:   ${entries(s.byCode)}`);
  lines.push(`flags:   ${entries(s.byFlag)}`);
  if (s.unknownFlags.length) lines.push(`unknown flags: ${s.unknownFlags.join(', ')}`);
  for (const [reason, r] of Object.entries(s.skipped) as [string, ReasonCount][])
    lines.push(`skipped ${reason}: ${r.count} (first lines ${r.firstLines.join(', ')})`);
  for (const [reason, r] of Object.entries(s.errors) as [string, ReasonCount][])
    lines.push(`unreadable ${reason}: ${r.count} (first lines ${r.firstLines.join(', ')})`);
  for (const e of firstErrors.slice(0, 5))
    lines.push(`  line ${e.line}: ${e.message}: ${JSON.stringify(e.excerpt)}`);
  for (const n of notes) lines.push(`note: ${n}`);
  return `${lines.join('\n')}\n`;
}

function entries(map: Record<string, number>): string {
  const list = Object.entries(map).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return list.length ? list.map(([k, v]) => `${k}=${v}`).join(' ') : '(none)';
}
