/**
 * meshdx gather [--context C] [--kubeconfig FILE] [--namespace N ...] [--since 30m]
 *               [--history FILE] -o FILE
 * One cluster's evidence as an `istioctl bug-report` archive (`.tar.gz`, entries under
 * `bug-report/`) plus meshdx's own files (`bug-report/meshdx/`: the manifest, the history
 * store's pod intervals and the recorded failing requests of the window). The capture reaches
 * the cluster through server/gather, which the process running the command hands over
 * (`io.gatherer`, bin/meshdx.mjs). Exit 0 written, 1 written with unreachable pods or skipped
 * parts (named on stderr and in the manifest), 2 bad usage or nothing written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseSince } from '../../lib/gather/since';
import { podKey } from '../../lib/refs/pod-ref';
import { namespaceProblem } from '../../lib/refs/ref-error';
import type { CliCommand, CliIO } from '../io';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, optionsProblem, type OptionSpecs } from '../io';

export const USAGE =
  'usage: meshdx gather -o FILE [--context C] [--kubeconfig FILE] [--namespace N ...] [--since 30m]\n' +
  '                     [--history FILE]\n' +
  "  Writes istioctl's bug-report layout as FILE (.tar.gz), plus meshdx's pod history and\n" +
  '  recorded failures of the window (--since, default 30m) from the history store (--history,\n' +
  "  default the dashboard's file under MESHDX_DB). Read-only; Secrets are never read.\n";

const OPTIONS: OptionSpecs = {
  output: { type: 'string' },
  context: { type: 'string' },
  kubeconfig: { type: 'string' },
  namespace: { type: 'string', multiple: true },
  since: { type: 'string' },
  history: { type: 'string' },
};

/** `-o FILE` is `--output FILE` (node's parseArgs keeps short options apart). */
function withLongOutput(argv: readonly string[]): string[] {
  return argv.map((a) =>
    a === '-o' ? '--output' : a.startsWith('-o=') ? `--output=${a.slice(3)}` : a,
  );
}

function usageError(io: CliIO, message: string): number {
  io.stderr(`meshdx gather: ${message}\n${USAGE}`);
  return EXIT_USAGE;
}

export const run: CliCommand = async (argv, io) => {
  const args = withLongOutput(argv);
  const problem = optionsProblem(args, OPTIONS);
  if (problem) return usageError(io, problem);
  const { values } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: false });
  const output = values.output as string | undefined;
  if (!output) return usageError(io, 'an output file is needed: -o FILE');
  const since = parseSince((values.since as string | undefined) ?? '30m');
  if ('error' in since) return usageError(io, since.error);
  const namespaces = (values.namespace as string[] | undefined) ?? null;
  for (const ns of namespaces ?? []) {
    const bad = namespaceProblem(ns);
    if (bad) return usageError(io, `--namespace: ${bad}`);
  }
  const out = path.resolve(io.cwd, output);
  if (!fs.existsSync(path.dirname(out)))
    return usageError(io, `-o ${output}: the folder ${path.dirname(out)} does not exist`);
  if (fs.existsSync(out) && fs.statSync(out).isDirectory())
    return usageError(io, `-o ${output} is a folder: name the archive file to write`);
  const history = values.history as string | undefined;
  if (history !== undefined && !fs.existsSync(path.resolve(io.cwd, history)))
    return usageError(io, `--history ${history} does not exist`);
  if (!io.gatherer) {
    io.stderr(
      'meshdx gather: this command line was started without the cluster capture: run it as `meshdx gather` (bin/meshdx.mjs)\n',
    );
    return EXIT_USAGE;
  }
  const kubeconfig = values.kubeconfig as string | undefined;
  try {
    const r = await io.gatherer({
      kubeconfig: kubeconfig === undefined ? null : path.resolve(io.cwd, kubeconfig),
      context: (values.context as string | undefined) ?? null,
      namespaces: namespaces ? [...new Set(namespaces)] : null,
      sinceMs: since.ms,
      sinceText: (values.since as string | undefined) ?? '30m',
      out,
      history: history === undefined ? null : path.resolve(io.cwd, history),
      progress: (line) => io.stderr(`meshdx gather: ${line}\n`),
    });
    const m = r.manifest;
    for (const u of m.unreachable)
      io.stderr(
        `meshdx gather: unreachable ${podKey(u.namespace, u.pod)} (${u.what}): ${u.reason}\n`,
      );
    io.stderr(
      `meshdx gather: wrote ${out}: ${r.entries} entries, ${r.bytes} bytes; ${m.counts.failures} recorded failures, ${m.counts.podIntervals} pod intervals; ${m.skipped.length} parts skipped (listed in bug-report/meshdx/manifest.json)\n`,
    );
    return m.unreachable.length > 0 ? EXIT_FAIL : EXIT_OK;
  } catch (e) {
    io.stderr(`meshdx gather: nothing written: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT_USAGE;
  }
};
