/**
 * meshdx report --url URL [--out DIR] [--views LIST|none] [--link URL ...] [--namespace NS]
 *                [--width 1440] [--pdf] [--timeout SECONDS]
 * Screenshot report of a running meshdx (e.g. through `kubectl port-forward`): a PNG per view and
 * deep link, index.html, report.json, and report.pdf with --pdf. Exit 0 ok, 1 some page showed
 * an error (report still written), 2 bad usage, meshdx not reachable, or Chromium missing.
 */
import type { CliCommand, CliIO } from '../io';
import { EXIT_USAGE } from '../io';
import { parseReportArgs, REPORT_USAGE } from '../report/options';
import { defaultDeps, runReport, type ReportDeps } from '../report/run';

export function runReportWith(deps: () => ReportDeps): CliCommand {
  return async (argv: string[], io: CliIO): Promise<number> => {
    const parsed = parseReportArgs(argv);
    if (!parsed.ok) {
      io.stderr(`meshdx report: ${parsed.error}\n${REPORT_USAGE}`);
      return EXIT_USAGE;
    }
    return runReport(parsed.options, io, deps());
  };
}

export const run: CliCommand = runReportWith(defaultDeps);
export const USAGE = REPORT_USAGE;
