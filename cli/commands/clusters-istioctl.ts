/**
 * What `meshdx clusters` prints for istioctl's own outputs (lib/configdump/istioctl-output.ts):
 * the cluster table of a `proxy-config cluster` list or table, meshdx's tables of listener and
 * route lists, and the xDS sync of `proxy-status`. Endpoint outputs go to the endpoint table of
 * the command itself (with --history). Each says what it read the file as.
 */
import type { CliIO } from '../io';
import { EXIT_FAIL, EXIT_OK } from '../io';
import type { IstioctlOutput } from '../../lib/configdump/istioctl-output';
import { formatClusterTable, tabulate } from '../../lib/configdump/table';
import { clusterJsonRow } from '../../lib/configdump/report';
import { formatListenerListTable, formatRouteListTable } from '../../lib/configdump/istioctl-lists';
import { proxyStatusCells, proxyStatusSummary } from '../../lib/configdump/proxy-status';
import type { DumpProblem } from '../../lib/configdump/types';
import { problemText } from '../../lib/parse-problem';
import { counted } from '../../lib/text-list';

/** Lists what could not be read under the output; the exit code. */
export function reportProblems(io: CliIO, file: string, errors: readonly DumpProblem[]): number {
  if (errors.length === 0) return EXIT_OK;
  io.stderr(`meshdx clusters: ${file}: ${errors.length} entries could not be read:\n`);
  for (const e of errors.slice(0, 20)) io.stderr(`  ${problemText(e)}\n`);
  if (errors.length > 20) io.stderr(`  ... and ${errors.length - 20} more\n`);
  return EXIT_FAIL;
}

/** Prints an istioctl output other than an endpoint one; the exit code. */
export function printIstioctlOutput(
  io: CliIO,
  file: string,
  out: Exclude<IstioctlOutput, { kind: 'endpoints' }>,
  json: boolean,
): number {
  if (json) {
    const body =
      out.kind === 'clusters'
        ? { clusters: out.rows.map(clusterJsonRow) }
        : out.kind === 'proxy-status'
          ? { hasStates: out.status.hasStates, proxies: out.status.rows }
          : out.kind === 'listeners'
            ? { listeners: out.rows }
            : { routes: out.rows };
    const value = { kind: out.kind, readAs: out.what, ...body, errors: out.errors };
    io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  } else {
    if (out.kind === 'clusters') io.stdout(formatClusterTable(out.rows));
    else if (out.kind === 'listeners') io.stdout(formatListenerListTable(out.rows));
    else if (out.kind === 'routes') io.stdout(formatRouteListTable(out.rows));
    else {
      io.stdout(tabulate(proxyStatusCells(out.status)));
      io.stdout(`${proxyStatusSummary(out.status)}\n`);
    }
    const n = out.kind === 'proxy-status' ? out.status.rows.length : out.rows.length;
    const noun =
      out.kind === 'proxy-status'
        ? counted(n, 'proxy', 'proxies')
        : counted(n, out.kind.slice(0, -1));
    io.stdout(`(read as ${out.what}: ${noun})\n`);
  }
  return reportProblems(io, file, out.errors);
}
