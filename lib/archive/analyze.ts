/**
 * `istioctl analyze` output as a bug-report keeps it (`analyze/allNamespaces`, and
 * `analyze/<namespace>` in older istioctl): one message per line in its log format,
 * `Warning [IST0107] (Pod default/httpbin-1) Misplaced annotation: ...`, the resource as
 * `Kind namespace/name` (`Kind name` when cluster-scoped; older istioctl printed
 * `Kind name.namespace`, read when the kind is namespaced and the name holds one dot), and held
 * beside meshdx's findings: agreed, only istioctl, only meshdx, for the codes meshdx claims to
 * report as istioctl does (lib/findings/claims); istioctl's other codes are listed apart.
 */
import { ISTIOCTL_CLAIMS, claimOf } from '../findings/claims';
import type { Finding } from '../findings/types';
import { subjectKey } from '../refs/object-ref';
import type { ParseProblem } from '../parse-problem';
import { excerptOf } from '../parse-problem';
import { CLUSTER_SCOPED_KINDS } from '../findings/screen';

export interface AnalyzeMessage {
  level: string;
  code: string;
  kind: string;
  namespace: string | null;
  name: string;
  message: string;
}

const LINE = /^(Error|Warning|Info)\s+\[(IST\d{4})\]\s+\((\w+)\s+([^)\s]+)\)\s*(.*)$/;

export function parseAnalyzeOutput(text: string): {
  messages: AnalyzeMessage[];
  problems: ParseProblem[];
} {
  const messages: AnalyzeMessage[] = [];
  const problems: ParseProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || /^✔|^No validation issues/i.test(line)) return;
    const m = LINE.exec(line);
    if (!m) {
      problems.push({
        line: i + 1,
        reason: 'line',
        message: 'not an istioctl analyze message (Level [ISTnnnn] (Kind ns/name) text)',
        excerpt: excerptOf(line),
      });
      return;
    }
    const [, level = '', code = '', kind = '', ref = '', message = ''] = m;
    let namespace: string | null = null;
    let name = ref;
    const slash = ref.indexOf('/');
    if (slash > 0) {
      namespace = ref.slice(0, slash);
      name = ref.slice(slash + 1);
    } else if (!CLUSTER_SCOPED_KINDS.has(kind) && ref.split('.').length === 2) {
      [name = ref, namespace = null] = ref.split('.');
    }
    messages.push({ level, code, kind, namespace, name, message });
  });
  return { messages, problems };
}

export interface AnalyzeComparison {
  agreed: AnalyzeMessage[];
  /** Messages of codes meshdx claims, that meshdx did not find. */
  onlyIstioctl: AnalyzeMessage[];
  /** meshdx's findings of claimed codes that istioctl's output lacks. */
  onlyMeshdx: Finding[];
  /** istioctl's messages of codes meshdx does not check. */
  notClaimed: AnalyzeMessage[];
}

export function compareWithAnalyze(
  findings: Finding[],
  messages: AnalyzeMessage[],
  /** Codes no check judged here (their inputs unread): set apart, as codes meshdx does not claim. */
  notChecked: ReadonlySet<string> = new Set(),
): AnalyzeComparison {
  const claimed = new Set(
    ISTIOCTL_CLAIMS.map((c) => c.code).filter((code) => !notChecked.has(code)),
  );
  const ours = new Map<string, Finding>();
  for (const f of findings)
    if (claimOf(f))
      ours.set(`${f.code} ${subjectKey(f.subject.kind, f.subject.namespace, f.subject.name)}`, f);
  const matched = new Set<string>();
  const out: AnalyzeComparison = { agreed: [], onlyIstioctl: [], onlyMeshdx: [], notClaimed: [] };
  for (const m of messages) {
    if (!claimed.has(m.code)) {
      out.notClaimed.push(m);
      continue;
    }
    const key = `${m.code} ${subjectKey(m.kind, m.namespace, m.name)}`;
    if (ours.has(key)) {
      out.agreed.push(m);
      matched.add(key);
    } else out.onlyIstioctl.push(m);
  }
  for (const [key, f] of ours) if (!matched.has(key)) out.onlyMeshdx.push(f);
  return out;
}
