import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import { EXIT_OK, EXIT_USAGE, guardedCommand, limitsOf, openInput } from '../io';
import { describeUntimed } from '../../lib/ledger/untimed';
import { parseArgs } from './accesslog';
import { checkReadable } from '../io';
import { loadHistory } from './history-input';
import { attributeRecord, type Attribution } from '../../lib/ledger/attribution';
import { startLogScan, type LogScanResult, type StartedLogScan } from '../logscan/parallel';
import { createUpstreamPodGrouper, type UpstreamPodGroup } from '../../lib/ledger/aggregate';
import { JsonItemFinisher, reportFrame } from '../../lib/ledger/report-json';
import { DEFAULT_GAP_TOLERANCE_MS, fmtMs } from '../../lib/ledger/lookup';
import { Utf8Blocks } from '../utf8-blocks';
import { podKeyOf } from '../../lib/refs/pod-ref';
import { kindName } from '../../lib/refs/workload-ref';
import { archiveInputKind, archiveRefusal } from './archive-input';

/** What `meshdx attribute --help` prints, and what a wrong use is told. */
export const USAGE =
  "usage: meshdx attribute LOG --history FILE [--json] [--all] [--format 'ENVOY FORMAT'] [--gap-minutes N] [--threads N] [--no-prescan]\n" +
  '  LOG: a file, or a pipe such as /dev/stdin (read in one pass on one thread)\n' +
  '  FILE: a pod watch capture (kubectl get pods -A -w -o json --output-watch-events) or a meshdx store file (MESHDX_DB)\n' +
  '  --threads N: threads that read the log (default: one per core, at most 4; 1: no worker threads,\n' +
  '    a large capture history is then read on the same thread too)\n' +
  '  --no-prescan: parse every line fully (slower; same results)\n';
/** Between the items of the --json report (see reportFrame). */
const ITEM_SEPARATOR = ',\n';
/** At most this many unreadable lines are listed one by one (all are counted). */
const MAX_UNREADABLE_LISTED = 1000;

/**
 * Exit 0 when the log had access-log records and the history pod events (unreadable lines and
 * requests without a time are listed with their line numbers); 2 when the log has no record
 * (empty, binary, a config dump), the history no pod event, or a file cannot be read.
 */
export const run: CliCommand = (argv: string[], io: CliIO): Promise<number> =>
  guardedCommand('attribute', io, () => runAttribute(argv, io));

async function runAttribute(argv: string[], io: CliIO): Promise<number> {
  const limits = limitsOf(io);
  const args = parseArgs(
    argv,
    ['history', 'format', 'gap-minutes', 'threads'],
    ['json', 'all', 'no-prescan'],
  );
  const historyArg = args.values.get('history');
  const gapText = args.values.get('gap-minutes');
  const gapMinutes = gapText === undefined ? DEFAULT_GAP_TOLERANCE_MS / 60_000 : Number(gapText);
  const threadsText = args.values.get('threads');
  const threads = threadsText === undefined ? null : Number(threadsText);
  const badThreads = threads !== null && !(Number.isInteger(threads) && threads >= 1);
  if (
    args.problems.length ||
    args.positional.length !== 1 ||
    !historyArg ||
    !(gapMinutes >= 0) ||
    badThreads
  ) {
    const why =
      args.problems.join('; ') ||
      (!historyArg
        ? '--history FILE is required'
        : !(gapMinutes >= 0)
          ? '--gap-minutes must be a number >= 0'
          : badThreads
            ? '--threads must be a whole number >= 1'
            : 'expected exactly one LOG file');
    io.stderr(`meshdx attribute: ${why}\n${USAGE}`);
    return EXIT_USAGE;
  }
  const logFile = path.resolve(io.cwd, args.positional[0] as string);
  const historyFile = path.resolve(io.cwd, historyArg);
  for (const [file, instead] of [
    [logFile, 'an access log'],
    [historyFile, 'a meshdx store or a pod watch capture'],
  ] as const) {
    const archive = archiveInputKind(file);
    if (archive) {
      io.stderr(archiveRefusal('attribute', file, archive, instead));
      return EXIT_USAGE;
    }
  }
  for (const [what, file, pipe] of [
    ['log file', logFile, true],
    ['history file', historyFile, false],
  ] as const) {
    const problem = checkReadable(file, { pipe });
    if (problem) {
      io.stderr(`meshdx attribute: cannot read ${what} ${problem}\n`);
      return EXIT_USAGE;
    }
  }
  // the log is read on worker threads from here on, while this thread reads the history
  let scan: StartedLogScan;
  try {
    scan = startLogScan(logFile, {
      fd: openInput(logFile),
      format: args.values.get('format'),
      all: args.flags.has('all'),
      prescan: !args.flags.has('no-prescan'),
      maxUnreadableListed: MAX_UNREADABLE_LISTED,
      maxLineBytes: limits.maxLineBytes,
      workers: threads === null ? undefined : threads - 1,
      output: args.flags.has('json') ? 'json' : 'records',
    });
  } catch (e) {
    io.stderr(`meshdx attribute: cannot read log file ${logFile}: ${errText(e)}\n`);
    return EXIT_USAGE;
  }
  const history = await loadHistory(io, 'attribute', historyFile, limits, threads !== 1).catch(
    (e: unknown) => {
      io.stderr(`meshdx attribute: error while reading history ${historyFile}: ${errText(e)}\n`);
      return null;
    },
  );
  if (!history) {
    scan.abort();
    return EXIT_USAGE;
  }

  // Each attribution is reduced as it comes (JSON text, or a group count): a long log keeps
  // a few hundred bytes per failing request, not its objects.
  const json = args.flags.has('json');
  const items = new Utf8Blocks();
  const grouper = createUpstreamPodGrouper();
  const unknown: Attribution[] = [];
  const attributeOptions = { gapToleranceMs: gapMinutes * 60_000 };
  let result: LogScanResult;
  try {
    const finisher = new JsonItemFinisher(history, attributeOptions.gapToleranceMs);
    result = await scan.finish({
      // --json: the scan threads made each item's text but for what the history says
      json: (line, time, ip, middle) => {
        if (!items.empty) items.push(ITEM_SEPARATOR);
        finisher.itemInto(items, line, time, ip, middle);
      },
      record: (r) => {
        const a = attributeRecord(r, history, attributeOptions);
        grouper.add(a);
        if (a.state === 'unknown' && unknown.length < 5) unknown.push(a);
      },
    });
  } catch (e) {
    io.stderr(`meshdx attribute: error while reading ${logFile}: ${errText(e)}\n`);
    return EXIT_USAGE;
  }
  for (const w of result.warnings) io.stderr(`meshdx attribute: warning: ${w}\n`);
  if (result.lines === 0) {
    io.stderr(`meshdx attribute: ${logFile}: is empty (no lines)\n`);
    return EXIT_USAGE;
  }
  if (result.requests === 0) {
    const parts = [
      ...Object.entries(result.errorsByReason).map(([k, n]) => `${n} unreadable (${k})`),
      ...Object.entries(result.skipped).map(([k, n]) => `${n} skipped (${k})`),
    ];
    io.stderr(
      `meshdx attribute: ${logFile}: no access-log record in ${result.lines} lines: ${parts.join(', ')}\n`,
    );
    return EXIT_USAGE;
  }
  if (json) {
    const { requests, errors, unreadable, untimed } = result;
    writeJsonReport(io, reportFrame({ requests, errors, unreadable, untimed }), items);
  } else {
    io.stdout(renderTable(result, args.flags.has('all'), grouper.groups(), unknown));
  }
  const untimedNote = describeUntimed(result.untimed);
  if (untimedNote) io.stderr(`meshdx attribute: ${logFile}: ${untimedNote}\n`);
  return EXIT_OK;
}

/**
 * The --json report: its head, the items in order (already joined by the frame's separator),
 * its end. The items are written as the blocks they were kept in: never one string as large
 * as all of them together.
 */
function writeJsonReport(
  io: CliIO,
  frame: ReturnType<typeof reportFrame>,
  items: Utf8Blocks,
): void {
  if (frame.separator !== ITEM_SEPARATOR)
    throw new Error('report items joined by another separator');
  if (items.empty) return io.stdout(frame.empty);
  io.stdout(frame.open);
  for (const block of items.blocks()) io.stdout(block);
  io.stdout(frame.close);
}

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function renderTable(
  result: LogScanResult,
  all: boolean,
  groups: UpstreamPodGroup[],
  unknown: Attribution[],
): string {
  const { requests, errors, selected: attributed } = result;
  const lines: string[] = [];
  lines.push(
    `requests ${requests}  unreadable lines ${errors}  ${all ? 'attributed (all)' : 'failing (5xx or flagged)'} ${attributed}` +
      (result.prescan ? `  passed by pre-scan ${result.skippedByFilter}` : ''),
  );
  if (groups.length === 0) return `${lines.join('\n')}\n`;
  const rows = groups.map((g) => [
    g.pod ? podKeyOf(g.pod) : '(no pod)',
    g.owner ? kindName(g.owner) : '-',
    g.state,
    String(g.count),
    Object.entries(g.byFlag)
      .map(([f, n]) => `${f}=${n}`)
      .join(','),
    Object.entries(g.byCode)
      .map(([c, n]) => `${c}=${n}`)
      .join(','),
    g.maxAfterTerminationMs === null ? '-' : fmtMs(g.maxAfterTerminationMs),
    g.upstreamIps.join(',') || '-',
  ]);
  const header = [
    'UPSTREAM POD',
    'OWNER',
    'STATE',
    'REQUESTS',
    'FLAGS',
    'CODES',
    'MAX AFTER TERMINATION',
    'IPS',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  lines.push(fmt(header), ...rows.map(fmt));
  for (const a of unknown) lines.push(`  line ${a.line}: unknown: ${a.reason}`);
  return `${lines.join('\n')}\n`;
}
