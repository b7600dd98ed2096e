/**
 * `meshdx findings` on an `istioctl bug-report` archive: the manifests of its cluster/ files
 * (resources, CRs), and what the archive's own `istioctl analyze` said, to hold beside meshdx's
 * findings.
 */
import type { CliIO } from '../io';
import { archiveLines, readArchiveInput } from './archive-read';
import { objectKey } from '../../lib/refs/object-ref';
import {
  parseAnalyzeOutput,
  type AnalyzeComparison,
  type AnalyzeMessage,
} from '../../lib/archive/analyze';

/** The files of a bug-report archive's cluster/ folder that hold manifests. */
const ARCHIVE_MANIFESTS = ['k8s-resources', 'k8s-cluster-resources', 'crs'];

/**
 * The archive's manifest texts and its analyze messages (null: the archive has no analyze/),
 * what it lacks said on stderr; null when the archive cannot be read (said too).
 */
export async function archiveManifests(
  io: CliIO,
  p: string,
): Promise<{
  texts: { file: string; text: () => Promise<string> }[];
  analyzed: AnalyzeMessage[] | null;
} | null> {
  const ix = await readArchiveInput(io, 'findings', p);
  if (!ix) return null;
  io.stderr(archiveLines('findings', p, ix));
  const texts: { file: string; text: () => Promise<string> }[] = [];
  for (const name of ARCHIVE_MANIFESTS) {
    const rel = ix.layout.cluster[name];
    if (rel === undefined) {
      const why = ix.missing.find((m) => m.part.endsWith(`cluster/${name}`))?.reason;
      io.stderr(
        `  cluster/${name}: ${why ?? 'not in the archive (--skip-cluster-dump leaves it out, and istioctl writes no file for an empty answer): its objects are unknown'}\n`,
      );
      continue;
    }
    texts.push({ file: `${p}:${rel}`, text: async () => (await ix.read(rel)).toString('utf8') });
  }
  let analyzed: AnalyzeMessage[] | null = null;
  for (const rel of ix.layout.analyze) {
    const parsed = parseAnalyzeOutput((await ix.read(rel)).toString('utf8'));
    analyzed = [...(analyzed ?? []), ...parsed.messages];
  }
  if (ix.layout.analyze.length === 0)
    io.stderr('  analyze/: not in the archive: what istioctl analyze said is unknown\n');
  return { texts, analyzed };
}

const messageText = (m: AnalyzeMessage) =>
  `${m.level} [${m.code}] (${m.kind} ${m.namespace ? objectKey(m.namespace, m.name) : m.name})`;

/** The archive's own `istioctl analyze` beside meshdx's findings, in lines. */
export function analyzeText(c: AnalyzeComparison): string {
  const lines = [
    `beside the archive's istioctl analyze: ${c.agreed.length} agreed, ${c.onlyIstioctl.length} only istioctl, ${c.onlyMeshdx.length} only meshdx, ${c.notClaimed.length} of codes meshdx does not check`,
    ...c.onlyIstioctl.map((m) => `  only istioctl: ${messageText(m)}`),
    ...c.onlyMeshdx.map(
      (f) =>
        `  only meshdx: ${f.code} (${f.subject.kind} ${f.subject.namespace ? objectKey(f.subject.namespace, f.subject.name) : f.subject.name})`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

export function analyzeJson(c: AnalyzeComparison) {
  return {
    agreed: c.agreed.length,
    onlyIstioctl: c.onlyIstioctl,
    onlyMeshdx: c.onlyMeshdx.map((f) => ({ code: f.code, subject: f.subject })),
    notClaimed: c.notClaimed,
  };
}
