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

/** An Istio release line, `major.minor` (`1.24`): what a finding's versions are counted in. */
export type IstioMinor = `${number}.${number}`;

/**
 * The Istio versions a finding applies to, judged against the cluster's istiod version
 * (lib/findings/istiod.ts). Bounds are release lines: a patch or a pre-release of 1.27 is 1.27.
 */
export interface IstioApplicability {
  /**
   * The first release where the check's subject exists and behaves as the finding says: the
   * release that added the resource, field or behaviour it judges (an ambient finding: the
   * first with that feature, or ambient's GA, 1.24, for advice on moving to it). For an IST
   * code, no later than the release whose istioctl analyze first reports the code, unless
   * meshdx's check judges a later form of it (IST0165: the internal names of 1.28).
   * Where the first release is not known from evidence: the earliest that can be supported,
   * which `why` says. `1.0` for what holds of any Istio (Kubernetes' behaviour of a pod).
   */
  since: IstioMinor;
  /** The first release where it no longer holds (exclusive), when a release changed the verdict. */
  until?: IstioMinor;
  /**
   * Between `since` and this release the subject exists only when opted in (native sidecars:
   * ENABLE_NATIVE_SIDECARS=true from 1.19, Istio's default from 1.27); a finding made from what
   * the cluster shows applies either way.
   */
  byDefault?: IstioMinor;
  /** The evidence for the bounds (the Istio source or release that shows them). */
  why: string;
}

export interface FindingCatalogEntry {
  code: string;
  severity: Severity;
  title: string;
  description: string;
  domain: FindingDomain;
  /** The Istio versions it applies to. */
  istio: IstioApplicability;
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
