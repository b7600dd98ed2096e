/**
 * A finding is data, never prose assembled in the UI: a stable code, a severity, the object
 * it is about, the evidence that led to it and the fix. Codes reuse istioctl analyze's IST
 * codes where the finding is the same, and MDX#### for meshdx's own. Ranges by domain:
 * MDX00xx platform, MDX01xx timelines, MDX02xx proxies, MDX03xx scoping, MDX04xx incidents,
 * MDX05xx protocol selection.
 */
import { subjectKey } from '../refs/object-ref';

export type Severity = 'error' | 'warning' | 'info';

export interface FindingSubject {
  kind: string;
  namespace?: string;
  name: string;
}

/**
 * The part of the subject a finding is about, when one object can carry several findings of
 * the same code: a Service port, a DestinationRule subset, a VirtualService destination, a
 * container's probe. Part of the finding's identity (see findingKey).
 */
export const FINDING_PART_KINDS = [
  'port',
  'targetPort',
  'subset',
  'destination',
  'probe',
  'host',
  'field',
  'pod',
] as const;

export interface FindingPart {
  kind: (typeof FINDING_PART_KINDS)[number];
  name: string;
}

export interface FindingFix {
  /** One line: why this change fixes it. */
  why: string;
  /** Copyable YAML (or command) to apply, when there is one. */
  yaml?: string;
}

/** One fact of a finding's evidence (null: none, or not known, as the key says). */
export type EvidenceValue = string | number | boolean | null;

export interface Finding {
  code: string;
  severity: Severity;
  subject: FindingSubject;
  part?: FindingPart;
  /** Short machine-made facts (key -> value) that support the finding. */
  evidence: Record<string, EvidenceValue>;
  fix?: FindingFix;
}

/** Where a code is defined: one catalog per domain, all of the same shape. */
export type FindingDomain =
  'platform' | 'config' | 'timeline' | 'proxies' | 'scoping' | 'incidents' | 'protocol' | 'ambient';

export interface FindingCatalogEntry {
  code: string;
  severity: Severity;
  title: string;
  description: string;
  domain: FindingDomain;
}

/**
 * The identity of a finding: code, subject and part. Two findings with the same key say the
 * same thing (two analyses saw it); different ports of one Service are different findings.
 */
export function findingKey(f: Pick<Finding, 'code' | 'subject' | 'part'>): string {
  const s = f.subject;
  const part = f.part === undefined ? '' : `${f.part.kind}=${f.part.name}`;
  return `${f.code}|${subjectKey(s.kind, s.namespace, s.name)}|${part}`;
}

/** Findings with the same identity shown once (the first wins), order kept. */
export function dedupeFindings<T extends Pick<Finding, 'code' | 'subject' | 'part'>>(
  findings: readonly T[],
): T[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = findingKey(f);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** Worst first, then by code and subject: a stable order for reports. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    a.code.localeCompare(b.code) ||
    findingKey(a).localeCompare(findingKey(b))
  );
}

export function severityRank(s: Severity): number {
  return SEVERITY_RANK[s];
}
