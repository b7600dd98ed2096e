/**
 * The istioctl analyze codes meshdx claims to report as istioctl does, in one place: for each,
 * the istioctl analyzer that reports it, the kinds of subject, and (for IST0101, which several
 * analyzers use) the reference types. tests/findings/analyzer-agreement.test.ts holds meshdx to
 * it on istioctl's own test inputs; a code meshdx cannot get right is not listed.
 */
import { RULE_CLAIMS, RULES, rulesNotRun } from './rules';
import type { Screened } from './screen';
import type { Finding } from './types';

export interface IstioctlClaim {
  code: string;
  analyzer: string;
  kinds: readonly string[];
  /** evidence.reftype values, when the code is shared by several checks. */
  reftypes?: readonly string[];
}

export const ISTIOCTL_CLAIMS: readonly IstioctlClaim[] = [
  {
    code: 'IST0101',
    analyzer: 'virtualservice.DestinationRuleAnalyzer',
    kinds: ['VirtualService'],
    reftypes: ['host+subset', 'mirror+subset'],
  },
  {
    code: 'IST0101',
    analyzer: 'virtualservice.DestinationHostAnalyzer',
    kinds: ['VirtualService'],
    reftypes: ['host', 'mirror host', 'host:port'],
  },
  {
    code: 'IST0112',
    analyzer: 'virtualservice.DestinationHostAnalyzer',
    kinds: ['VirtualService'],
  },
  {
    code: 'IST0101',
    analyzer: 'virtualservice.GatewayAnalyzer',
    kinds: ['VirtualService'],
    reftypes: ['gateway'],
  },
  { code: 'IST0132', analyzer: 'virtualservice.GatewayAnalyzer', kinds: ['VirtualService'] },
  {
    code: 'IST0101',
    analyzer: 'sidecar.SelectorAnalyzer',
    kinds: ['Sidecar'],
    reftypes: ['selector'],
  },
  // once per Sidecar and pod it conflicts on, as istioctl reports it
  { code: 'IST0110', analyzer: 'sidecar.SelectorAnalyzer', kinds: ['Sidecar'] },
  { code: 'IST0111', analyzer: 'sidecar.SelectorAnalyzer', kinds: ['Sidecar'] },
  { code: 'IST0103', analyzer: 'injection.Analyzer', kinds: ['Pod'] },
  { code: 'IST0116', analyzer: 'deployment.ServiceAssociationAnalyzer', kinds: ['Deployment'] },
  { code: 'IST0137', analyzer: 'deployment.ServiceAssociationAnalyzer', kinds: ['Deployment'] },
  { code: 'IST0118', analyzer: 'service.PortNameAnalyzer', kinds: ['Service'] },
  { code: 'IST0150', analyzer: 'service.PortNameAnalyzer', kinds: ['Service'] },
  {
    code: 'IST0173',
    analyzer: 'destinationrule.PodNotSelectedAnalyzer',
    kinds: ['DestinationRule'],
  },
  {
    code: 'IST0174',
    analyzer: 'destinationrule.PodNotSelectedAnalyzer',
    kinds: ['DestinationRule'],
  },
  ...RULE_CLAIMS,
];

export function claimOf(f: Finding): IstioctlClaim | undefined {
  return ISTIOCTL_CLAIMS.find(
    (c) =>
      c.code === f.code &&
      c.kinds.includes(f.subject.kind) &&
      (c.reftypes === undefined || c.reftypes.includes(String(f.evidence.reftype))),
  );
}

/**
 * istioctl codes no check judged on these objects: claimed by a rule not run (an input kind
 * unread) and by no check that ran. An istioctl message of such a code is neither agreed nor
 * disputed (lib/archive/analyze).
 */
export function codesNotChecked(screened: Screened): string[] {
  const notRun = new Set(rulesNotRun(screened).map((n) => n.rule));
  if (notRun.size === 0) return [];
  const skipped = RULES.filter((r) => notRun.has(r.id));
  const skippedAnalyzers = new Set(skipped.map((r) => r.analyzer));
  const codes = new Set(skipped.flatMap((r) => r.claims.map((c) => c.code)));
  // a code some check that ran claims too (another analyzer's) is judged there
  for (const c of ISTIOCTL_CLAIMS) if (!skippedAnalyzers.has(c.analyzer)) codes.delete(c.code);
  return [...codes].sort();
}
