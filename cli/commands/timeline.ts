/**
 * meshdx timeline FILE [--mesh-config FILE] [--json]
 * Sidecar startup/shutdown verdicts for the pods in FILE (Pod, PodList, List or a watch stream).
 * Exit 0 with a report; 2 when the input or the mesh config cannot be read (the message names
 * the file and position). Partly readable input is reported on stderr and judged as far as read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import { EXIT_OK, EXIT_USAGE } from '../io';
import { checkReadable, parseArgs } from './accesslog';
import { analyzePods } from '../../lib/timeline/analyze';
import { summarizeFleet } from '../../lib/timeline/fleet';
import { readTimelineInput } from '../../lib/timeline/input';
import { parseMeshConfig, type MeshSettings } from '../../lib/timeline/meshconfig';
import type { InputError } from '../../lib/timeline/position';
import { toIso } from '../../lib/timeline/time';
import type { PodTimeline } from '../../lib/timeline/types';

const USAGE = 'usage: meshdx timeline FILE [--mesh-config FILE] [--json]\n';

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
  fix: string | null;
}

export function toRow(t: PodTimeline): TimelineRow {
  const fix = t.verdicts.flatMap((v) => v.fixes).find((f) => f.yaml !== undefined);
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
    fix: fix?.yaml ?? null,
  };
}

function where(file: string, e: InputError): string {
  return `${file}:${e.line}:${e.column}: ${e.message}`;
}

function readText(file: string, io: CliIO, what: string): string | null {
  const unreadable = checkReadable(file);
  if (unreadable) {
    io.stderr(`meshdx timeline: cannot read ${what} ${unreadable}\n`);
    return null;
  }
  return fs.readFileSync(file, 'utf8');
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
    const fix = t.verdicts.flatMap((v) => v.fixes)[0];
    if (!reasons.length && !fix) continue;
    out += `\n${t.namespace}/${t.name}:\n`;
    for (const r of reasons) out += `  ${r}\n`;
    if (fix) out += `  fix: ${fix.why}\n${(fix.yaml ?? '').replace(/^/gm, '    ')}\n`;
  }
  return out;
}

export const run: CliCommand = async (argv: string[], io: CliIO): Promise<number> => {
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
  const text = readText(path.resolve(io.cwd, fileArg), io, 'input');
  if (text === null) return EXIT_USAGE;
  const input = readTimelineInput(text);
  if (input.errors.length) {
    io.stderr(input.errors.map((e) => `meshdx timeline: ${where(fileArg, e)}\n`).join(''));
  }
  if (input.pods.length === 0) {
    if (!input.errors.length) io.stderr(`meshdx timeline: ${fileArg}: no pods found\n`);
    return EXIT_USAGE;
  }
  const timelines = analyzePods(input.pods, {
    mesh,
    events: input.events,
    transitions: input.transitions,
  });
  if (args.flags.has('json')) io.stdout(JSON.stringify({ pods: timelines.map(toRow) }) + '\n');
  else io.stdout(textReport(timelines));
  return EXIT_OK;
};
