/**
 * Which DestinationRule applies to a host for a client proxy, as istiod decides it: one exported
 * to the client's namespace, looked up in the client's namespace first, then the service's
 * namespace, then the root namespace; within a namespace an exact host beats a wildcard, the more
 * specific wildcard beats a broader one, and the oldest wins a tie.
 */
import type { DestinationRule } from '../kube/types';
import { dnsMatches, isExportedTo, resolveShortHost } from './hosts';

function drHost(dr: DestinationRule): string {
  return resolveShortHost(dr.spec?.host ?? '', dr.metadata.namespace ?? 'default');
}

function specificity(pattern: string, host: string): number {
  if (pattern === host) return Number.MAX_SAFE_INTEGER;
  return dnsMatches(pattern, host) ? pattern.length : -1;
}

function created(dr: DestinationRule): number {
  const t = Date.parse(dr.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** DestinationRules grouped by namespace, so a lookup only scans the three candidate namespaces. */
export type DestinationRuleIndex = ReadonlyMap<string, readonly DestinationRule[]>;

export function indexDestinationRules(rules: readonly DestinationRule[]): DestinationRuleIndex {
  const out = new Map<string, DestinationRule[]>();
  for (const dr of rules) {
    const ns = dr.metadata.namespace ?? 'default';
    const list = out.get(ns);
    if (list) list.push(dr);
    else out.set(ns, [dr]);
  }
  return out;
}

function bestIn(
  candidates: readonly DestinationRule[],
  ns: string,
  host: string,
  clientNamespace: string,
): DestinationRule | undefined {
  let best: DestinationRule | undefined;
  let bestScore = -1;
  for (const dr of candidates) {
    if (!isExportedTo(dr.spec?.exportTo, ns, clientNamespace)) continue;
    const score = specificity(drHost(dr), host);
    if (score < 0) continue;
    if (score > bestScore || (score === bestScore && best && created(dr) < created(best))) {
      best = dr;
      bestScore = score;
    }
  }
  return best;
}

export function destinationRuleFor(
  host: string,
  clientNamespace: string,
  serviceNamespace: string,
  rules: readonly DestinationRule[] | DestinationRuleIndex,
  rootNamespace: string,
): DestinationRule | undefined {
  const index = rules instanceof Map ? rules : indexDestinationRules(rules as DestinationRule[]);
  const h = host.toLowerCase();
  for (const ns of [clientNamespace, serviceNamespace, rootNamespace]) {
    const best = bestIn(index.get(ns) ?? [], ns, h, clientNamespace);
    if (best) return best;
  }
  return undefined;
}
