/**
 * Which DestinationRule applies to a host for a client proxy, as istiod decides it: one exported
 * to the client's namespace, looked up in the client's namespace first, then the service's
 * namespace, then the root namespace; within a namespace an exact host beats a wildcard, the more
 * specific wildcard beats a broader one, and the oldest wins a tie.
 */
import type { DestinationRule } from '../../../lib/kube/types';
import { dnsMatches, isExportedTo, resolveShortHost } from '../../../lib/scoping/hosts';

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

export function destinationRuleFor(
  host: string,
  clientNamespace: string,
  serviceNamespace: string,
  rules: readonly DestinationRule[],
  rootNamespace: string,
): DestinationRule | undefined {
  for (const ns of [clientNamespace, serviceNamespace, rootNamespace]) {
    let best: DestinationRule | undefined;
    let bestScore = -1;
    for (const dr of rules) {
      if ((dr.metadata.namespace ?? 'default') !== ns) continue;
      if (!isExportedTo(dr.spec?.exportTo, ns, clientNamespace)) continue;
      const score = specificity(drHost(dr), host.toLowerCase());
      if (score < 0) continue;
      if (score > bestScore || (score === bestScore && best && created(dr) < created(best))) {
        best = dr;
        bestScore = score;
      }
    }
    if (best) return best;
  }
  return undefined;
}
