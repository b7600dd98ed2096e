/**
 * The analyzer rules, each in its own file (./rule.ts says what a rule holds). Their catalog
 * entries, istioctl claims and the kinds they read are derived here, once: the findings
 * registry, the claims and the server's lists take them from this module.
 */
import type { FindingCatalogEntry, Finding } from '../types';
import { guarded } from '../guard';
import type { Screened } from '../screen';
import { APPLICATION_UID } from './application-uid';
import { K8S_ANNOTATIONS } from './k8s-annotations';
import { ALPHA_ANNOTATIONS } from './alpha-annotations';
import { INJECTION_NAMESPACES } from './injection';
import { WEBHOOK } from './webhook';
import { INJECTION_IMAGE } from './injection-image';
import type { AnalyzerRule, RuleClaim, RuleContext } from './rule';
import type { KubeObject } from '../../kube/types';

export const RULES: readonly AnalyzerRule[] = [
  APPLICATION_UID,
  K8S_ANNOTATIONS,
  ALPHA_ANNOTATIONS,
  INJECTION_NAMESPACES,
  WEBHOOK,
  INJECTION_IMAGE,
];

export const RULE_CATALOG: readonly FindingCatalogEntry[] = RULES.flatMap((r) => r.catalog.entries);

/** Each rule's claims with the istioctl analyzer they follow. */
export const RULE_CLAIMS: readonly (RuleClaim & { analyzer: string })[] = RULES.flatMap((r) =>
  r.analyzer === null ? [] : r.claims.map((c) => ({ ...c, analyzer: r.analyzer as string })),
);

/** Every kind some rule reads. */
export const RULE_KINDS: ReadonlySet<string> = new Set(RULES.flatMap((r) => r.reads));

/** Run every rule on the screened objects; a rule that throws is an MDX0003, the others run. */
export function ruleFindings(screened: Screened, rootNamespace: string): Finding[] {
  const byKind = new Map<string, KubeObject[]>();
  for (const o of screened.objects) {
    const kind = o.kind ?? '';
    const list = byKind.get(kind);
    if (list === undefined) byKind.set(kind, [o]);
    else list.push(o);
  }
  const ctx: RuleContext = {
    screened,
    rootNamespace,
    objects: (kind) => byKind.get(kind) ?? [],
  };
  return RULES.flatMap((r) => guarded(r.id, () => r.check(ctx)));
}
