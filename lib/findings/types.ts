/**
 * A finding is data, never prose assembled in the UI: a stable code, a severity, the object
 * it is about, the evidence that led to it and the fix. Codes reuse istioctl analyze's IST
 * codes where the finding is the same, and MDX#### for meshdx's own. Ranges by domain:
 * MDX00xx platform, MDX01xx timelines, MDX02xx proxies, MDX03xx scoping, MDX04xx incidents,
 * MDX05xx protocol selection.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface FindingSubject {
  kind: string;
  namespace?: string;
  name: string;
}

export interface FindingFix {
  /** One line: why this change fixes it. */
  why: string;
  /** Copyable YAML (or command) to apply, when there is one. */
  yaml?: string;
}

export interface Finding {
  code: string;
  severity: Severity;
  subject: FindingSubject;
  /** Short machine-made facts (key -> value) that support the finding. */
  evidence: Record<string, string | number | boolean | null>;
  fix?: FindingFix;
}

export interface FindingCatalogEntry {
  code: string;
  severity: Severity;
  title: string;
  description: string;
}
