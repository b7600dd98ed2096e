import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, guarded, limitsOf, readDocument } from '../io';
import { analyzeDump, clustersJson, describeDumpError } from '../../lib/configdump/report';
import { formatClusterTable } from '../../lib/configdump/table';
import { formatZtunnelTables, ztunnelJson } from '../../lib/configdump/ztunnel';
import type { DumpError } from '../../lib/configdump/types';
import {
  endpointReport,
  endpointSummary,
  formatEndpointTable,
  type EndpointReport,
} from '../../lib/configdump/endpoints';

const USAGE =
  'usage: meshdx clusters FILE [--json] [--endpoints]\n' +
  '  FILE: an Envoy config dump (the cluster table), a ztunnel dump (its workloads and services),\n' +
  '  or a /clusters?format=json answer (the endpoint table: health and outlier ejections)\n' +
  '  --endpoints: the endpoint table of a config dump taken with ?include_eds (health, workload)\n';
const OPTIONS = new Set(['--json', '--endpoints']);

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
  guarded('clusters', io, async () => {
    const files = argv.filter((a) => !a.startsWith('--'));
    const unknown = argv.filter((a) => a.startsWith('--') && !OPTIONS.has(a));
    if (unknown.length > 0 || files.length !== 1) {
      const why = unknown.length
        ? `unknown option ${unknown.join(', ')}`
        : 'expected exactly one FILE';
      io.stderr(`meshdx clusters: ${why}\n${USAGE}`);
      return EXIT_USAGE;
    }
    const file = path.resolve(io.cwd, files[0] as string);
    const limits = limitsOf(io);
    const read = readDocument(file, limits);
    if ('error' in read) {
      io.stderr(`meshdx clusters: cannot read ${read.error}\n`);
      return EXIT_USAGE;
    }
    const json = argv.includes('--json');
    if (CLUSTER_STATUSES.test(read.text.slice(0, 200))) {
      const report = endpointReport(read.text);
      if (report.problem) {
        io.stderr(`meshdx clusters: ${file}: ${report.problem}\n`);
        return EXIT_USAGE;
      }
      return endpoints(io, file, report, json);
    }
    const result = analyzeDump(read.text, limits.maxDepth, {
      endpoints: argv.includes('--endpoints'),
    });
    if (result.kind === 'error') {
      const first = result.errors[0];
      const why = first ? describeDumpError(first) : 'unreadable config dump';
      io.stderr(`meshdx clusters: ${file}: ${why}\n`);
      return EXIT_USAGE;
    }
    if (result.kind === 'endpoints') return endpoints(io, file, result.endpoints, json);
    let errors: DumpError[];
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
    for (const e of errors.slice(0, 20)) io.stderr(`  ${describeDumpError(e)}\n`);
    if (errors.length > 20) io.stderr(`  ... and ${errors.length - 20} more\n`);
    return EXIT_FAIL;
  });

/** The `istioctl proxy-config endpoint` table, or its JSON. */
function endpoints(io: CliIO, file: string, report: EndpointReport, json: boolean): number {
  if (json) {
    const { source, rows, clusters, unreadable } = report;
    io.stdout(`${JSON.stringify({ source, endpoints: rows, clusters, unreadable }, null, 2)}\n`);
  } else {
    io.stdout(formatEndpointTable(report));
    io.stdout(`${endpointSummary(report)}\n`);
  }
  if (report.unreadable === 0) return EXIT_OK;
  io.stderr(
    `meshdx clusters: ${file}: ${report.unreadable} hosts have no socket or pipe address: not shown\n`,
  );
  return EXIT_FAIL;
}
