/**
 * meshdx timeline FILE [--mesh-config FILE] [--json]
 * Sidecar startup/shutdown verdicts for the pods in FILE (Pod, PodList, List, a watch stream, or
 * `kubectl describe pod` text, whose coarser times cap the confidence).
 * Exit 0 with a report of what was read: when only part of the input could be read, the report
 * is still printed, each error goes to stderr as FILE:LINE:COL: message, followed by
 * "N part(s) of FILE could not be read". Exit 2 when no pod could be read (empty, binary, no
 * pod in it), the input is over the size or depth limit, or a file cannot be read.
 */
import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import { depthError, EXIT_OK, EXIT_USAGE, guardedCommand, limitsOf, readDocument } from '../io';
import { parseArgs } from './accesslog';
import { analyzePods } from '../../lib/timeline/analyze';
import { summarizeFleet } from '../../lib/timeline/fleet';
import { readTimelineInput } from '../../lib/timeline/input';
import { parseMeshConfig, type MeshSettings } from '../../lib/timeline/meshconfig';
import { TIMELINE_CATALOG } from '../../lib/timeline/codes';
import type { TimelineInputProblem } from '../../lib/timeline/position';
import { toIso } from '../../lib/timeline/time';
import type { PodTimeline, VerdictResult } from '../../lib/timeline/types';
import { podKeyOf } from '../../lib/refs/pod-ref';
import { pastedKindHint } from '../../lib/pasted-kind';
import { limitAllByDescribe } from '../../lib/timeline/describe-limits';
import { archiveInputKind, archiveRefusal } from './archive-input';
import { archiveLines, missingLines, readArchiveInput } from './archive-read';

/** What `meshdx timeline --help` prints, and what a wrong use is told. */
export const USAGE = 'usage: meshdx timeline FILE [--mesh-config FILE] [--json]\n';

export interface TimelineRow {
  namespace: string;
  name: string;
  mode: string;
  verdicts: string[];
  codes: string[];
  appStartedAt: string | null;
  proxyReadyAt: string | null;
  proxyReadySource: string;
  gapMs: number | null;
  restarts: number;
  /** The primary fix: the first fix of the most severe verdict that has one. */
  fix: string | null;
  /** Every fix of every verdict, in verdict order. */
  fixes: { verdict: string; why: string; yaml: string | null }[];
  notes: string[];
}

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/** Verdicts most severe first (stable for equal severity). */
function bySeverity(verdicts: readonly VerdictResult[]): VerdictResult[] {
  const rank = (v: VerdictResult) => SEVERITY_RANK[TIMELINE_CATALOG[v.verdict].severity];
  return [...verdicts].sort((a, b) => rank(a) - rank(b));
}

export function toRow(t: PodTimeline): TimelineRow {
  const primary = bySeverity(t.verdicts)
    .flatMap((v) => v.fixes)
    .find((f) => f.yaml !== undefined);
  return {
    namespace: t.namespace,
    name: t.name,
    mode: t.mode,
    verdicts: t.verdicts.map((v) => v.verdict),
    codes: t.verdicts.map((v) => v.code),
    appStartedAt: toIso(t.appStartedAt),
    proxyReadyAt: toIso(t.proxyReady.at),
    proxyReadySource: t.proxyReady.source,
    gapMs: t.gapMs,
    restarts: t.restarts,
    fix: primary?.yaml ?? null,
    fixes: t.verdicts.flatMap((v) =>
      v.fixes.map((f) => ({ verdict: v.verdict, why: f.why, yaml: f.yaml ?? null })),
    ),
    notes: t.notes,
  };
}

export const EVENTS_HINT =
  'hint: some pods are unknown; capture events too (`kubectl get pods,events -A -o json`) or a watch stream (`kubectl get pods -A -w -o json --output-watch-events`)';

function where(file: string, e: TimelineInputProblem): string {
  return `${file}:${e.line}:${e.column}: ${e.message}`;
}

/** A whole document, size-, binary- and depth-checked before any parser sees it. */
function readText(file: string, io: CliIO, what: string): string | null {
  const limits = limitsOf(io);
  const archive = archiveInputKind(file);
  if (archive) {
    io.stderr(
      archiveRefusal('timeline', file, archive, 'a pod list or `kubectl describe pod` text'),
    );
    return null;
  }
  const read = readDocument(file, limits);
  if ('error' in read) {
    io.stderr(`meshdx timeline: cannot read ${what} ${read.error}\n`);
    return null;
  }
  const deep = depthError(file, read.text, limits);
  if (deep) {
    io.stderr(`meshdx timeline: ${deep}\n`);
    return null;
  }
  return read.text;
}

function pad(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return (
    rows
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}

function gapText(ms: number | null): string {
  return ms === null ? '-' : `${ms >= 0 ? '+' : ''}${(ms / 1000).toFixed(1)}s`;
}

function textReport(timelines: PodTimeline[]): string {
  const rows = [
    ['NAMESPACE', 'POD', 'MODE', 'VERDICTS', 'GAP', 'PROXY READY (SOURCE/CONF)', 'RESTARTS'],
  ];
  for (const t of timelines) {
    rows.push([
      t.namespace,
      t.name,
      t.mode,
      t.verdicts.map((v) => `${v.verdict}(${v.code})`).join(',') || '-',
      gapText(t.gapMs),
      t.proxyReady.source === 'none' ? '-' : `${t.proxyReady.source}/${t.proxyReady.confidence}`,
      String(t.restarts),
    ]);
  }
  let out = pad(rows);
  const s = summarizeFleet(timelines);
  out += `\n${s.pods} pods; ${
    Object.entries(s.byVerdict)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || 'no verdicts'
  }\n`;
  for (const t of timelines) {
    const reasons = t.verdicts
      .filter((v) => v.verdict === 'unknown')
      .map((v) => String(v.evidence.reason ?? 'unknown'));
    if (t.excluded) reasons.push(t.excluded);
    const withFixes = t.verdicts.filter((v) => v.fixes.length > 0);
    if (!reasons.length && !withFixes.length && !t.notes.length) continue;
    out += `\n${podKeyOf(t)}:\n`;
    for (const r of reasons) out += `  ${r}\n`;
    for (const n of t.notes) out += `  note: ${n}\n`;
    for (const v of withFixes) {
      v.fixes.forEach((fix, i) => {
        out += `  ${i === 0 ? `fix (${v.verdict})` : '  or'}: ${fix.why}\n`;
        if (fix.yaml) out += `${fix.yaml.replace(/^/gm, '    ')}\n`;
      });
    }
  }
  return out;
}

/** True when unknown verdicts could be judged with events or a watch stream. */
function needsEvents(timelines: PodTimeline[], events: number, transitions: number): boolean {
  return (
    events === 0 &&
    transitions === 0 &&
    timelines.some((t) => t.verdicts.some((v) => v.verdict === 'unknown'))
  );
}

export const run: CliCommand = (argv: string[], io: CliIO): Promise<number> =>
  guardedCommand('timeline', io, () => runTimeline(argv, io));

async function runTimeline(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, ['mesh-config'], ['json']);
  if (args.problems.length || args.positional.length !== 1) {
    io.stderr(
      `meshdx timeline: ${args.problems.join('; ') || 'expected exactly one FILE'}\n${USAGE}`,
    );
    return EXIT_USAGE;
  }
  const fileArg = args.positional[0] as string;
  let mesh: MeshSettings | undefined;
  const meshArg = args.values.get('mesh-config');
  if (meshArg !== undefined) {
    const text = readText(path.resolve(io.cwd, meshArg), io, 'mesh config');
    if (text === null) return EXIT_USAGE;
    const parsed = parseMeshConfig(text);
    if (parsed.errors.length) {
      io.stderr(parsed.errors.map((e) => `meshdx timeline: ${where(meshArg, e)}\n`).join(''));
      return EXIT_USAGE;
    }
    mesh = parsed.settings;
  }
  const inputPath = path.resolve(io.cwd, fileArg);
  // a bug-report archive (.tar.gz or unpacked): the pods of cluster/k8s-resources and the
  // events of cluster/events, read as one pod list
  const text =
    archiveInputKind(inputPath) !== null
      ? await archivePods(io, inputPath)
      : readText(inputPath, io, 'input');
  if (text === null) return EXIT_USAGE;
  const input = readTimelineInput(text);
  if (input.errors.length) {
    io.stderr(input.errors.map((e) => `meshdx timeline: ${where(fileArg, e)}\n`).join(''));
  }
  if (input.pods.length === 0) {
    const hint = pastedKindHint(text, 'meshdx timeline');
    if (hint) io.stderr(`meshdx timeline: ${fileArg}: ${hint}\n`);
    if (!input.errors.length)
      io.stderr(`meshdx timeline: ${fileArg}: no pods found (nothing to judge)\n`);
    else if (input.unreadable > 0) {
      io.stderr(`meshdx timeline: ${input.unreadable} part(s) of ${fileArg} could not be read\n`);
    }
    return EXIT_USAGE;
  }
  const analyzed = analyzePods(input.pods, {
    mesh,
    events: input.events,
    transitions: input.transitions,
  });
  // `kubectl describe pod` text: coarser times, and what describe does not print, said
  const timelines = input.described ? limitAllByDescribe(analyzed, input.described) : analyzed;
  const hint = needsEvents(timelines, input.events.length, input.transitions.length);
  if (args.flags.has('json')) {
    io.stdout(JSON.stringify({ pods: timelines.map(toRow) }) + '\n');
    if (hint) io.stderr(`meshdx timeline: ${EVENTS_HINT}\n`);
  } else io.stdout(textReport(timelines) + (hint ? `\n${EVENTS_HINT}\n` : ''));
  if (input.unreadable > 0)
    io.stderr(`meshdx timeline: ${input.unreadable} part(s) of ${fileArg} could not be read\n`);
  return EXIT_OK;
}

/** The pods and events of an archive as one `kubectl get pods,events -o json` list, or null. */
async function archivePods(io: CliIO, file: string): Promise<string | null> {
  const ix = await readArchiveInput(io, 'timeline', file);
  if (!ix) return null;
  io.stderr(archiveLines('timeline', file, ix));
  const missing = missingLines(ix, (part) => part.startsWith('cluster/'));
  if (missing.length > 0)
    io.stderr(`not in the archive (unknown, not zero):\n${missing.join('\n')}\n`);
  const pods = ix.objects.filter((o) => o.kind === 'Pod');
  const events = (ix.events ?? []).map((e) => ({ apiVersion: 'v1', kind: 'Event', ...e }));
  io.stderr(
    `meshdx timeline: ${file}: read ${pods.length} pods from cluster/, ${events.length} events from cluster/events\n`,
  );
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [...pods, ...events] });
}
