import fs from 'node:fs';
import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import { pastedKindHint } from '../../lib/pasted-kind';
import { checkReadable, EXIT_OK, EXIT_USAGE, guardedCommand, limitsOf, openInput } from '../io';
import { createLineSplitter } from '../../lib/accesslog/lines';
import { compileFormat, unreadableFormat } from '../../lib/accesslog/format';
import { createLineParser } from '../../lib/accesslog/parser';
import {
  createSummaryBuilder,
  type AccessLogSummary,
  type ReasonCount,
} from '../../lib/accesslog/stats';
import type { AccessLogProblem } from '../../lib/accesslog/types';
import { problemText } from '../../lib/parse-problem';
import { archiveInputKind } from './archive-input';
import { archiveLines, missingLines, readArchiveInput } from './archive-read';

export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  values: Map<string, string>;
  problems: string[];
}

/**
 * Minimal argv parser: `--name value`, `--name=value`, boolean `--flag`; `--` ends the options
 * (a FILE named `-x` after it). What is wrong is listed in `problems`, each naming the flag: an
 * unknown one (`-x` too: a FILE starting with "-" goes after `--` or as `./-x`), a value missing
 * or looking like the next flag, a value given to a switch. A lone `-` is a FILE.
 */
export function parseArgs(argv: string[], valued: string[], booleans: string[]): ParsedArgs {
  const out: ParsedArgs = { positional: [], flags: new Set(), values: new Map(), problems: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      out.positional.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) {
      out.problems.push(`unknown option ${arg}`);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (valued.includes(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[i + 1];
      if (value === undefined) out.problems.push(`--${name} needs a value`);
      else if (eq < 0 && value.length > 1 && value.startsWith('-'))
        out.problems.push(
          `--${name} needs a value (got ${value}; write --${name}=${value} for a value starting with "-")`,
        );
      else out.values.set(name, value);
      if (eq < 0) i++;
    } else if (booleans.includes(name))
      if (eq < 0) out.flags.add(name);
      else out.problems.push(`--${name} takes no value`);
    else out.problems.push(`unknown option --${name}`);
  }
  return out;
}

export { checkReadable } from '../io';

/** How much of a log's start is kept to tell what a file of another kind is. */
const HEAD_BYTES = 256 * 1024;

/**
 * Streams a file (or a pipe) line by line in constant memory: bytes split on '\n', each line
 * decoded once; a line longer than maxLineBytes is handed over as `null` with its excerpt
 * (never held whole). Returns the number of lines and the first 256 KiB read (kept as it
 * streams by: a pipe cannot be opened again, and opening a drained FIFO blocks for ever).
 */
export async function forEachLine(
  file: string,
  maxLineBytes: number,
  fn: (line: string | null, excerpt: string) => void,
): Promise<{ lines: number; head: string }> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const splitter = createLineSplitter((bytes, start, end, cut) => {
    if (cut) fn(null, decoder.decode(bytes.subarray(start, Math.min(end, start + 120))));
    else fn(decoder.decode(bytes.subarray(start, end)), '');
  }, maxLineBytes);
  const head: Buffer[] = [];
  let kept = 0;
  const stream = fs.createReadStream(file, { fd: openInput(file), highWaterMark: HEAD_BYTES });
  for await (const chunk of stream) {
    const buf = chunk as Buffer;
    if (kept < HEAD_BYTES) {
      head.push(buf.subarray(0, HEAD_BYTES - kept));
      kept += Math.min(buf.length, HEAD_BYTES - kept);
    }
    splitter.push(buf);
  }
  splitter.end();
  return { lines: splitter.lines, head: Buffer.concat(head).toString('utf8') };
}

/** What `meshdx accesslog --help` prints, and what a wrong use is told. */
export const USAGE =
  "usage: meshdx accesslog LOG [--json] [--format 'ENVOY FORMAT STRING']\n" +
  "  LOG: an access log, or an `istioctl bug-report` archive (.tar.gz or unpacked): each proxy's\n" +
  '  istio-proxy.log is read and summed up under its name in the archive\n';

/**
 * `meshdx accesslog LOG`: what a log holds (formats, codes, flags, unreadable and skipped lines
 * with their numbers). Exit 0 when some line is an access-log record, 2 when none is (an empty
 * file or pipe, a binary, a config dump given as a log) or the file cannot be read.
 */
export const run: CliCommand = (argv: string[], io: CliIO): Promise<number> =>
  guardedCommand('accesslog', io, () => runAccesslog(argv, io));

async function runAccesslog(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, ['format'], ['json']);
  if (args.problems.length || args.positional.length !== 1) {
    io.stderr(
      `meshdx accesslog: ${args.problems.join('; ') || 'expected exactly one LOG file'}\n${USAGE}`,
    );
    return EXIT_USAGE;
  }
  const file = path.resolve(io.cwd, args.positional[0] as string);
  const refused = refusedFormat(args.values.get('format'));
  if (refused) {
    io.stderr(`meshdx accesslog: --format ${refused}\n${USAGE}`);
    return EXIT_USAGE;
  }
  // a bug-report archive (.tar.gz or unpacked): each proxy's istio-proxy.log
  if (archiveInputKind(file) !== null)
    return accesslogOfArchive(io, file, args.values.get('format'), args.flags.has('json'));
  const unreadable = checkReadable(file, { pipe: true });
  if (unreadable) {
    io.stderr(`meshdx accesslog: cannot read log file ${unreadable}\n`);
    return EXIT_USAGE;
  }
  const parser = createLineParser({ format: args.values.get('format') });
  const builder = createSummaryBuilder();
  const { maxLineBytes } = limitsOf(io);
  let head = '';
  try {
    ({ head } = await forEachLine(file, maxLineBytes, (line, excerpt) =>
      builder.add(line === null ? parser.tooLong(excerpt, maxLineBytes) : parser.push(line)),
    ));
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
        parser.formatProblems.map((p) => `format string: ${problemText(p)}`),
      ),
    );
  }
  const why = nothingUsable(summary);
  if (why) {
    const hint = pastedKindHint(head, 'meshdx accesslog');
    io.stderr(`meshdx accesslog: ${file}: ${why}\n${hint ? `${hint}\n` : ''}`);
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/**
 * Why a --format cannot read a log, or null (unreadableFormat: no %OPERATOR%, or none Envoy has).
 * Other problems of the format string, an operator newer than meshdx's list among them, are
 * reported with the summary, and the log is read.
 */
export function refusedFormat(format: string | undefined): string | null {
  if (format === undefined) return null;
  const refused = unreadableFormat(compileFormat(format));
  if (refused === null) return null;
  if (refused.some((p) => p.reason === 'no-operators'))
    return "names no %OPERATOR% (like %RESPONSE_CODE%): it would read nothing of a line. Give the proxy's accessLogFormat as set in the mesh config, or leave --format out.";
  return refused.map((p) => problemText(p)).join('; ');
}

/** Why no line of a log could be used, or null when some could. */
export function nothingUsable(s: AccessLogSummary): string | null {
  if (s.lines === 0) return 'is empty (no lines)';
  if (s.parsed > 0) return null;
  const parts = [
    ...Object.entries(s.errors).map(([k, r]) => `${r?.count ?? 0} unreadable (${k})`),
    ...Object.entries(s.skipped).map(([k, r]) => `${r?.count ?? 0} skipped (${k})`),
  ];
  return `no access-log record in ${s.lines} line${s.lines === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

export function renderSummary(
  file: string,
  s: AccessLogSummary,
  firstErrors: AccessLogProblem[],
  notes: string[],
): string {
  const lines: string[] = [];
  const errorCount = Object.values(s.errors).reduce((n, r) => n + (r?.count ?? 0), 0);
  const skippedCount = Object.values(s.skipped).reduce((n, r) => n + (r?.count ?? 0), 0);
  lines.push(`${file}`);
  lines.push(
    `lines ${s.lines}  parsed ${s.parsed} (partial ${s.partial}, tcp ${s.tcp}, without time ${s.untimed})  skipped ${skippedCount}  unreadable ${errorCount}`,
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

/**
 * `meshdx accesslog ARCHIVE`: every proxy's `istio-proxy.log` of an `istioctl bug-report`
 * archive, each read as one LOG is (the same parser and summary), under its name in the archive.
 * A proxy without a log is named as missing, never read as empty.
 */
async function accesslogOfArchive(
  io: CliIO,
  file: string,
  format: string | undefined,
  json: boolean,
): Promise<number> {
  const ix = await readArchiveInput(io, 'accesslog', file);
  if (!ix) return EXIT_USAGE;
  const { maxLineBytes } = limitsOf(io);
  const logs = ix.proxies.flatMap((p) => (p.files.log ? [p.files.log] : [])).sort();
  const results = [];
  let usable = 0;
  if (!json) io.stderr(archiveLines('accesslog', file, ix));
  for (const log of logs) {
    const parser = createLineParser({ format });
    const builder = createSummaryBuilder();
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const splitter = createLineSplitter((bytes, start, end, cut) => {
      if (cut)
        builder.add(
          parser.tooLong(
            decoder.decode(bytes.subarray(start, Math.min(end, start + 120))),
            maxLineBytes,
          ),
        );
      else builder.add(parser.push(decoder.decode(bytes.subarray(start, end))));
    }, maxLineBytes);
    splitter.push(await ix.read(log));
    splitter.end();
    const summary = builder.summary();
    const why = nothingUsable(summary);
    if (!why) usable++;
    if (json)
      results.push({
        file: log,
        ...summary,
        firstErrors: builder.firstErrors,
        formatProblems: parser.formatProblems,
        nothingUsable: why,
      });
    else {
      io.stdout(
        renderSummary(
          log,
          summary,
          builder.firstErrors,
          parser.formatProblems.map((p) => `format string: ${problemText(p)}`),
        ),
      );
      if (why) io.stdout(`${log}: ${why}\n`);
    }
  }
  const missing = missingLines(ix, (part) => part.endsWith('/istio-proxy.log'));
  if (json)
    io.stdout(
      `${JSON.stringify({ archive: ix.name, logs: results, missing: ix.missing.filter((m) => m.part.endsWith('/istio-proxy.log')) }, null, 2)}\n`,
    );
  else if (missing.length > 0)
    io.stdout(`not in the archive (unknown, not zero):\n${missing.join('\n')}\n`);
  if (logs.length === 0) {
    io.stderr(`meshdx accesslog: ${file}: the archive holds no istio-proxy.log\n`);
    return EXIT_USAGE;
  }
  return usable > 0 ? EXIT_OK : EXIT_USAGE;
}
