import fs from 'node:fs';
import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import {
  checkReadable,
  EXIT_FAIL,
  EXIT_OK,
  EXIT_USAGE,
  guardedCommand,
  limitsOf,
  readDocument,
} from '../io';
import { parseArgs } from './accesslog';
import { loadHistory } from './history-input';
import { analyzeDump, clustersJson, type DumpAnalysis } from '../../lib/configdump/report';
import { readZtunnelConfigOutput } from '../../lib/ambient/istioctl-output';
import { pastedKindHint } from '../../lib/pasted-kind';
import { readIstioctlOutput } from '../../lib/configdump/istioctl-output';
import { printIstioctlOutput, reportProblems } from './clusters-istioctl';
import { formatClusterTable } from '../../lib/configdump/table';
import { formatZtunnelTables, ztunnelJson } from '../../lib/configdump/ztunnel';
import type { DumpProblem } from '../../lib/configdump/types';
import { problemText } from '../../lib/parse-problem';
import {
  endpointHolders,
  endpointReport,
  endpointSummary,
  formatEndpointTable,
  hiddenHostsText,
  holderSummary,
  type EndpointHolder,
  type EndpointReport,
} from '../../lib/configdump/endpoints';
import { archiveInputKind } from './archive-input';
import { clustersOfArchive } from './clusters-archive';

/** What `meshdx clusters --help` prints, and what a wrong use is told. */
export const USAGE =
  'usage: meshdx clusters FILE [--json] [--endpoints] [--history HISTORY [--at TIME]]\n' +
  '  FILE: an Envoy config dump (the cluster table), a ztunnel dump (its workloads and services),\n' +
  '  an `istioctl bug-report` archive (.tar.gz or unpacked: a line per proxy file it read),\n' +
  '  `istioctl ztunnel-config workloads|services|policies|certificates` output (table or -o json),\n' +
  '  a /clusters?format=json answer or /clusters text (the endpoint table: health and outlier\n' +
  '  ejections), `istioctl proxy-config cluster|endpoint|listener|route -o json|yaml` lists,\n' +
  '  the `proxy-config cluster` and `endpoint` tables, `istioctl proxy-status` (table or -o json)\n' +
  '  --endpoints: the endpoint table of a config dump taken with ?include_eds (health, workload)\n' +
  '  --history: a meshdx store or watch capture: who held each endpoint IP at TIME (RFC 3339;\n' +
  "    default the FILE's modification time, when it was saved): pods already gone are phantoms\n";

/** An Envoy `/clusters?format=json` answer names cluster_statuses first. */
const CLUSTER_STATUSES = /^\s*\{\s*"(cluster_statuses|clusterStatuses)"/;

/**
 * `meshdx clusters FILE [--json]`: the `istioctl proxy-config cluster` table for a saved
 * Envoy config dump (/config_dump, istioctl proxy-config all -o json|yaml, istiod debug dump,
 * any generation back to Istio 1.0), or the `istioctl ztunnel-config workloads`/`services`
 * tables for a ztunnel dump. Exit 0 when every entry was read, 1 when some could not be (they
 * are listed, in --json as errors[]), 2 when the file is no dump or cannot be read.
 */
export const run: CliCommand = (argv: string[], io: CliIO): Promise<number> =>
  guardedCommand('clusters', io, async () => {
    const args = parseArgs(argv, ['history', 'at'], ['json', 'endpoints']);
    const atText = args.values.get('at');
    const at = atText === undefined ? null : Date.parse(atText);
    const historyArg = args.values.get('history');
    const why =
      args.problems.join('; ') ||
      (args.positional.length !== 1
        ? 'expected exactly one FILE'
        : at !== null && Number.isNaN(at)
          ? `--at ${atText}: not a time (RFC 3339, e.g. 2024-06-01T10:00:00Z)`
          : atText !== undefined && historyArg === undefined
            ? '--at needs --history'
            : null);
    if (why) {
      io.stderr(`meshdx clusters: ${why}\n${USAGE}`);
      return EXIT_USAGE;
    }
    const file = path.resolve(io.cwd, args.positional[0] as string);
    const limits = limitsOf(io);
    // a bug-report archive (.tar.gz or unpacked): each proxy's files, read by their kind
    if (archiveInputKind(file) !== null) {
      if (historyArg !== undefined || args.flags.has('endpoints')) {
        io.stderr(
          `meshdx clusters: ${file}: --history and --endpoints read one file: name one of the archive's files\n`,
        );
        return EXIT_USAGE;
      }
      return clustersOfArchive(io, file, args.flags.has('json'));
    }
    const read = readDocument(file, limits);
    if ('error' in read) {
      io.stderr(`meshdx clusters: cannot read ${read.error}\n`);
      return EXIT_USAGE;
    }
    const json = args.flags.has('json');
    const held = async (report: EndpointReport): Promise<number> => {
      if (historyArg === undefined) return endpoints(io, file, report, json, null);
      const historyFile = path.resolve(io.cwd, historyArg);
      const problem = checkReadable(historyFile);
      if (problem) {
        io.stderr(`meshdx clusters: cannot read history file ${problem}\n`);
        return EXIT_USAGE;
      }
      const history = await loadHistory(io, 'clusters', historyFile, limits, false);
      if (!history) return EXIT_USAGE;
      const time = at ?? fs.statSync(file).mtimeMs;
      const holders = endpointHolders(report.rows, history, time);
      return endpoints(io, file, report, json, { time, holders, fromMtime: at === null });
    };
    if (CLUSTER_STATUSES.test(read.text.slice(0, 200))) {
      const report = endpointReport(read.text);
      if (report.problem) {
        io.stderr(`meshdx clusters: ${file}: ${report.problem}\n`);
        return EXIT_USAGE;
      }
      return held(report);
    }
    const result = analyzeDump(read.text, limits.maxDepth, {
      endpoints: args.flags.has('endpoints') || historyArg !== undefined,
    });
    // `istioctl ztunnel-config workloads|services|policies|certificates`: lists and tables
    const zc =
      result.kind === 'error' && result.errors[0]?.reason !== 'too-deep'
        ? readZtunnelConfigOutput(read.text)
        : null;
    if (zc) return printZtunnel(io, file, { kind: 'ztunnel', ztunnel: zc.parse }, json);
    // istioctl's Envoy outputs: proxy-config lists and tables, /clusters text, proxy-status
    const istioctl =
      result.kind === 'error' && result.errors[0]?.reason !== 'too-deep'
        ? readIstioctlOutput(read.text)
        : null;
    if (istioctl?.kind === 'endpoints') {
      if (!json) io.stderr(`meshdx clusters: ${file}: read as ${istioctl.what}\n`);
      const code = await held(istioctl.report);
      return Math.max(code, reportProblems(io, file, istioctl.errors));
    }
    if (istioctl) return printIstioctlOutput(io, file, istioctl, json);
    if (result.kind === 'error') {
      const first = result.errors[0];
      const why = first ? problemText(first) : 'unreadable config dump';
      const hint = pastedKindHint(read.text, 'meshdx clusters');
      io.stderr(`meshdx clusters: ${file}: ${why}\n${hint ? `${hint}\n` : ''}`);
      return EXIT_USAGE;
    }
    if (result.kind === 'endpoints') return held(result.endpoints);
    return printZtunnel(io, file, result, json);
  });

/** The tables (or JSON) of a ztunnel dump or an Envoy dump, and what could not be read. */
function printZtunnel(
  io: CliIO,
  file: string,
  result: Extract<DumpAnalysis, { kind: 'ztunnel' | 'envoy' }>,
  json: boolean,
): number {
  let errors: DumpProblem[];
  if (result.kind === 'ztunnel') {
    errors = result.ztunnel.errors;
    if (json) io.stdout(`${JSON.stringify(ztunnelJson(result.ztunnel), null, 2)}\n`);
    else io.stdout(formatZtunnelTables(result.ztunnel.dump));
  } else {
    errors = result.report.errors;
    if (json) io.stdout(`${JSON.stringify(clustersJson(result.report), null, 2)}\n`);
    else io.stdout(formatClusterTable(result.report.clusters));
  }
  if (errors.length === 0) return EXIT_OK;
  io.stderr(`meshdx clusters: ${file}: ${errors.length} entries could not be read:\n`);
  for (const e of errors.slice(0, 20)) io.stderr(`  ${problemText(e)}\n`);
  if (errors.length > 20) io.stderr(`  ... and ${errors.length - 20} more\n`);
  return EXIT_FAIL;
}

/** Endpoints of gone or terminating pods named under the table (all of them in --json). */
const PHANTOMS_LISTED = 20;

/** Who held each endpoint's IP, and when: the file's time unless --at said. */
interface Held {
  time: number;
  holders: (EndpointHolder | null)[];
  fromMtime: boolean;
}

/** The `istioctl proxy-config endpoint` table (with who held each IP), or its JSON. */
function endpoints(
  io: CliIO,
  file: string,
  report: EndpointReport,
  json: boolean,
  held: Held | null,
): number {
  if (json) {
    const { source, rows, clusters, unreadable, unnamed } = report;
    const endpoints = held ? rows.map((r, i) => ({ ...r, heldBy: held.holders[i] ?? null })) : rows;
    const at = held ? { at: new Date(held.time).toISOString() } : {};
    io.stdout(
      `${JSON.stringify({ source, ...at, endpoints, clusters, unreadable, unnamed }, null, 2)}\n`,
    );
  } else {
    io.stdout(formatEndpointTable(report, held?.holders));
    io.stdout(`${endpointSummary(report)}\n`);
    if (held) {
      io.stdout(`${holderSummary(held.holders, held.time)}\n`);
      // the endpoints to act on: pods gone or going, with what the history says of each
      const named = report.rows.flatMap((r, i) => {
        const h = held.holders[i];
        return h && (h.state === 'terminated' || h.state === 'terminating')
          ? [`  ${r.endpoint} (${r.cluster}): ${h.reason}`]
          : [];
      });
      for (const line of named.slice(0, PHANTOMS_LISTED)) io.stdout(`${line}\n`);
      if (named.length > PHANTOMS_LISTED)
        io.stdout(`  ... and ${named.length - PHANTOMS_LISTED} more (--json lists all)\n`);
      if (held.fromMtime)
        io.stdout(
          `(the time is ${path.basename(file)}'s modification time: --at TIME sets another)\n`,
        );
    }
  }
  const hidden = hiddenHostsText(report);
  if (hidden === null) return EXIT_OK;
  io.stderr(`meshdx clusters: ${file}: ${hidden}\n`);
  return EXIT_FAIL;
}
