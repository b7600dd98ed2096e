/** Verdicts as findings: {code, severity, subject, evidence, fix}. */
import type { Finding } from '../findings/types';
import { TIMELINE_CATALOG } from './codes';
import type { PodTimeline } from './types';
import { kindName } from '../refs/workload-ref';

export function timelineFindings(t: PodTimeline): Finding[] {
  return t.verdicts.map((v) => ({
    code: v.code,
    severity: TIMELINE_CATALOG[v.verdict].severity,
    subject: { kind: 'Pod', namespace: t.namespace, name: t.name },
    evidence: {
      ...v.evidence,
      verdict: v.verdict,
      confidence: v.confidence,
      workload: kindName(t.workload),
    },
    ...(v.fixes[0] ? { fix: v.fixes[0] } : {}),
  }));
}
