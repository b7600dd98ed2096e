/**
 * Which DestinationRule applies to a host for a client proxy, as istiod decides it
 * (istio/istio pilot/pkg/model/push_context.go destinationRule, destination_rule.go
 * mergeDestinationRule): one exported to the client's namespace, looked up in the client's
 * namespace first, then the service's namespace, then the root namespace (a client in the root
 * namespace looks only at the root rules private to it before the service's namespace); within a
 * namespace an exact host beats a wildcard and the more specific wildcard beats a broader one.
 * Rules of one namespace for the same host and exportTo are merged, the oldest first: its traffic
 * policy, plus every subset whose name is new.
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

const exportKey = (dr: DestinationRule) => [...new Set(dr.spec?.exportTo ?? [])].sort().join(',');

/** The oldest rule, with the subsets of the later ones (same exportTo) whose names are new. */
function merged(rules: DestinationRule[]): DestinationRule | undefined {
  const [first, ...rest] = [...rules].sort((a, b) => created(a) - created(b));
  if (!first || rest.length === 0) return first;
  const subsets = [...(first.spec.subsets ?? [])];
  let trafficPolicy = first.spec.trafficPolicy;
  for (const dr of rest) {
    if (exportKey(dr) !== exportKey(first)) continue;
    const names = new Set(subsets.map((s) => s.name));
    subsets.push(...(dr.spec.subsets ?? []).filter((s) => !names.has(s.name)));
    trafficPolicy ??= dr.spec.trafficPolicy;
  }
  return { ...first, spec: { ...first.spec, subsets, trafficPolicy } };
}

function bestIn(
  candidates: readonly DestinationRule[],
  ns: string,
  host: string,
  clientNamespace: string,
  privateOnly = false,
): DestinationRule | undefined {
  let best: DestinationRule[] = [];
  let bestScore = -1;
  for (const dr of candidates) {
    // a workloadSelector rule is private to its namespace and picks proxies by label, which this
    // per-namespace model does not know: it never stands for the namespace (sidecar.go)
    if ((dr.spec as { workloadSelector?: unknown }).workloadSelector !== undefined) continue;
    if (!isExportedTo(dr.spec?.exportTo, ns, clientNamespace)) continue;
    const to = dr.spec?.exportTo ?? [];
    if (privateOnly && !(to.length === 1 && (to[0] === '.' || to[0] === ns))) continue;
    const score = specificity(drHost(dr), host);
    if (score < 0) continue;
    if (score > bestScore) {
      best = [dr];
      bestScore = score;
    } else if (score === bestScore && drHost(dr) === drHost(best[0] ?? dr)) best.push(dr);
  }
  return merged(best);
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
  for (const [i, ns] of [clientNamespace, serviceNamespace, rootNamespace].entries()) {
    const rootClient = i === 0 && clientNamespace === rootNamespace;
    const best = bestIn(index.get(ns) ?? [], ns, h, clientNamespace, rootClient);
    if (best) return best;
  }
  return undefined;
}
