/**
 * `meshdx clusters ARCHIVE`: each proxy's files of an `istioctl bug-report` archive handed to
 * the reader of their kind, one line per file saying what it was read as and what it holds:
 * `config_dump?include_eds` (the cluster table's counts and the EDS endpoints), a ztunnel's
 * `config_dump` (workloads and services), `clusters` (Envoy's /clusters text: endpoints,
 * health, outlier ejections). `--json` gives the same per file. What the archive lacks of
 * these is named, never counted as zero.
 */
import type { CliIO } from '../io';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE } from '../io';
import { analyzeDump } from '../../lib/configdump/report';
import {
  endpointReport,
  endpointSummary,
  hiddenHostsText,
  type EndpointReport,
} from '../../lib/configdump/endpoints';
import { readIstioctlOutput } from '../../lib/configdump/istioctl-output';
import { problemText } from '../../lib/parse-problem';
import { archiveLines, missingLines, readArchiveInput } from './archive-read';

/** What one file of the archive was read as, and what it holds. */
interface FileRead {
  file: string;
  readAs: string;
  /** One line of what it holds, or why it could not be read. */
  holds: string;
  ok: boolean;
  clusters?: { total: number; service: number };
  endpoints?: Pick<EndpointReport, 'clusters' | 'unreadable' | 'unnamed'> & {
    rows: number;
    notHealthy: number;
    ejected: number | null;
  };
  ztunnel?: { workloads: number; services: number };
}

function endpointFacts(r: EndpointReport): NonNullable<FileRead['endpoints']> {
  return {
    rows: r.rows.length,
    clusters: r.clusters,
    unreadable: r.unreadable,
    unnamed: r.unnamed,
    notHealthy: r.rows.filter((x) => x.status !== 'HEALTHY').length,
    ejected:
      r.source === 'admin-clusters' ? r.rows.filter((x) => x.failedOutlierCheck).length : null,
  };
}

function readDumpFile(file: string, text: string, withEds: boolean): FileRead {
  const dump = analyzeDump(text);
  if (dump.kind === 'error')
    return {
      file,
      readAs: 'config dump',
      holds: dump.errors
        .map((e) => problemText(e))
        .slice(0, 2)
        .join('; '),
      ok: false,
    };
  if (dump.kind === 'ztunnel') {
    const d = dump.ztunnel.dump;
    return {
      file,
      readAs: 'a ztunnel config dump',
      holds: `${d.workloads.length} workloads, ${d.services.length} services`,
      ok: dump.ztunnel.errors.length === 0,
      ztunnel: { workloads: d.workloads.length, services: d.services.length },
    };
  }
  if (dump.kind === 'endpoints') {
    const facts = endpointFacts(dump.endpoints);
    return {
      file,
      readAs: 'an Envoy config dump (EDS only)',
      holds: endpointSummary(dump.endpoints),
      ok: true,
      endpoints: facts,
    };
  }
  const s = dump.report.summary;
  const out: FileRead = {
    file,
    readAs: 'an Envoy config dump',
    holds: `${s.total} clusters (${s.service} service)`,
    ok: dump.report.errors.length === 0,
    clusters: { total: s.total, service: s.service },
  };
  if (withEds) {
    const eds = analyzeDump(text, undefined, { endpoints: true });
    if (eds.kind === 'endpoints') {
      out.endpoints = endpointFacts(eds.endpoints);
      const hidden = hiddenHostsText(eds.endpoints);
      out.holds += `; ${endpointSummary(eds.endpoints)}${hidden ? `; ${hidden}` : ''}`;
    }
  }
  return out;
}

function readClustersFile(file: string, text: string): FileRead {
  if (/^\s*\{/.test(text)) {
    const report = endpointReport(text);
    if (report.problem)
      return { file, readAs: "Envoy's /clusters?format=json", holds: report.problem, ok: false };
    return {
      file,
      readAs: "Envoy's /clusters?format=json",
      holds: endpointSummary(report),
      ok: report.unreadable === 0,
      endpoints: endpointFacts(report),
    };
  }
  const out = readIstioctlOutput(text);
  if (out?.kind !== 'endpoints')
    return {
      file,
      readAs: "Envoy's /clusters",
      holds: 'neither its text (CLUSTER::HOST::FIELD::VALUE lines) nor its JSON: not read',
      ok: false,
    };
  const hidden = hiddenHostsText(out.report);
  return {
    file,
    readAs: out.what,
    holds: `${endpointSummary(out.report)}${hidden ? `; ${hidden}` : ''}`,
    ok: out.errors.length === 0 && out.report.unreadable === 0,
    endpoints: endpointFacts(out.report),
  };
}

export async function clustersOfArchive(io: CliIO, file: string, json: boolean): Promise<number> {
  const ix = await readArchiveInput(io, 'clusters', file);
  if (!ix) return EXIT_USAGE;
  const reads: FileRead[] = [];
  const proxies = [...ix.proxies].sort((a, b) =>
    a.namespace === b.namespace ? (a.pod < b.pod ? -1 : 1) : a.namespace < b.namespace ? -1 : 1,
  );
  for (const p of proxies) {
    if (p.files.configDump)
      reads.push(
        readDumpFile(
          p.files.configDump,
          (await ix.read(p.files.configDump)).toString('utf8'),
          p.edsIncluded,
        ),
      );
    if (p.files.clusters)
      reads.push(
        readClustersFile(p.files.clusters, (await ix.read(p.files.clusters)).toString('utf8')),
      );
  }
  const missing = missingLines(
    ix,
    (part) => part.startsWith('proxies/') && !/istio-proxy\.log$|stats\/prometheus$/.test(part),
  );
  if (json) {
    const value = {
      archive: ix.name,
      captured: ix.capture.time?.toISOString() ?? null,
      files: reads,
      missing: ix.missing.filter((m) => m.part.startsWith('proxies/')),
      problems: ix.problems,
    };
    io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  } else {
    io.stderr(archiveLines('clusters', file, ix));
    for (const r of reads) io.stdout(`${r.file}: ${r.readAs}: ${r.holds}\n`);
    if (reads.length === 0) io.stdout('no proxy config dump or /clusters file in the archive\n');
    if (missing.length > 0)
      io.stdout(`not in the archive (unknown, not zero):\n${missing.join('\n')}\n`);
  }
  if (reads.length === 0) return EXIT_USAGE;
  return reads.every((r) => r.ok) ? EXIT_OK : EXIT_FAIL;
}
