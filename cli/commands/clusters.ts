import fs from 'node:fs';
import path from 'node:path';
import type { CliCommand, CliIO } from '../io';
import { EXIT_OK, EXIT_USAGE } from '../io';
import { analyzeClusterDump, clustersJson, describeDumpError } from '../../lib/configdump/report';
import { formatClusterTable } from '../../lib/configdump/table';

const USAGE = 'usage: meshdx clusters FILE [--json]\n';

function readText(file: string): { text: string } | { error: string } {
  try {
    const st = fs.statSync(file);
    if (!st.isFile()) return { error: `${file} is not a regular file` };
    return { text: fs.readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { error: `${file}: no such file` };
    if (code === 'EACCES') return { error: `${file}: permission denied` };
    return { error: `${file}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * `meshdx clusters FILE [--json]`: the `istioctl proxy-config cluster` table for a saved
 * config dump (Envoy /config_dump, istioctl proxy-config all -o json|yaml, istiod debug dump).
 */
export const run: CliCommand = async (argv: string[], io: CliIO): Promise<number> => {
  const files = argv.filter((a) => !a.startsWith('--'));
  const unknown = argv.filter((a) => a.startsWith('--') && a !== '--json');
  if (unknown.length > 0 || files.length !== 1) {
    const why = unknown.length
      ? `unknown option ${unknown.join(', ')}`
      : 'expected exactly one FILE';
    io.stderr(`meshdx clusters: ${why}\n${USAGE}`);
    return EXIT_USAGE;
  }
  const file = path.resolve(io.cwd, files[0] as string);
  const read = readText(file);
  if ('error' in read) {
    io.stderr(`meshdx clusters: cannot read ${read.error}\n`);
    return EXIT_USAGE;
  }
  const result = analyzeClusterDump(read.text);
  if (!result.ok) {
    const first = result.errors[0];
    const why = first ? describeDumpError(first) : 'unreadable config dump';
    io.stderr(`meshdx clusters: ${file}: ${why}\n`);
    return EXIT_USAGE;
  }
  const { report } = result;
  if (argv.includes('--json')) {
    io.stdout(`${JSON.stringify(clustersJson(report), null, 2)}\n`);
  } else {
    io.stdout(formatClusterTable(report.clusters));
  }
  if (report.errors.length > 0) {
    io.stderr(`meshdx clusters: ${report.errors.length} entries could not be read:\n`);
    for (const e of report.errors.slice(0, 20)) io.stderr(`  ${describeDumpError(e)}\n`);
  }
  return EXIT_OK;
};
