/**
 * DestinationRules as the simulated istiod indexes and picks them, from istio/istio
 * pilot/pkg/model/push_context.go (setDestinationRules, destinationRule,
 * getExportedDestinationRuleFromNamespace), destination_rule.go (mergeDestinationRule, with
 * ENABLE_ENHANCED_DESTINATIONRULE_MERGE on, its default) and sidecar.go
 * (SidecarScope.DestinationRule):
 *
 * - Rules are taken oldest first (rules with a workloadSelector before those without); a short host
 *   is resolved in the rule's namespace.
 * - Rules of one namespace for the same host with the same exportTo and no (or equal) selectors are
 *   MERGED: the first one's traffic policy (unless it has none), every subset whose name is new.
 * - A proxy in namespace P looks, for a service of namespace S: in P's own rules (those exported to
 *   P itself); then S's rules exported to P; then the root namespace's rules exported to P. A proxy
 *   in the root namespace first looks only at the root rules private to it. Within a namespace the
 *   exact host wins, else the most specific wildcard.
 * - A rule with a workloadSelector stays private to its namespace and applies only to proxies there
 *   whose labels it selects; else the selector-less rule for the host applies.
 */
import type { DestinationRule, TrafficPolicy } from '../../../../lib/kube/types';
import { isWildcard, mostSpecificHostMatch, resolveShortname } from './hosts';

export type Subset = NonNullable<DestinationRule['spec']['subsets']>[number];

/** A DestinationRule after merging: what the simulated proxy is configured from. */
export interface MergedRule {
  host: string;
  namespace: string;
  /** Rules merged into this one, the first being the one istiod names in cluster metadata. */
  from: { namespace: string; name: string }[];
  trafficPolicy?: TrafficPolicy;
  subsets: Subset[];
  exportTo: readonly string[];
  selector?: Record<string, string>;
}

interface HostTable {
  specific: Map<string, MergedRule[]>;
  wildcard: Map<string, MergedRule[]>;
}

export interface SimDestinationRuleIndex {
  rootNamespace: string;
  namespaceLocal: Map<string, HostTable>;
  exportedByNamespace: Map<string, HostTable>;
  rootNamespaceLocal: HostTable;
}

const table = (): HostTable => ({ specific: new Map(), wildcard: new Map() });

function selectorOf(dr: DestinationRule): Record<string, string> | undefined {
  const ws = (dr.spec as { workloadSelector?: { matchLabels?: Record<string, string> } })
    .workloadSelector;
  return ws ? (ws.matchLabels ?? {}) : undefined;
}

function created(dr: DestinationRule): number {
  const t = Date.parse(dr.metadata.creationTimestamp ?? '');
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t;
}

/** sortConfigBySelectorAndCreationTime: selector rules first, then oldest, then name, namespace. */
function compareRules(a: DestinationRule, b: DestinationRule): number {
  const sa = selectorOf(a) !== undefined ? 0 : 1;
  const sb = selectorOf(b) !== undefined ? 0 : 1;
  return (
    sa - sb ||
    created(a) - created(b) ||
    a.metadata.name.localeCompare(b.metadata.name) ||
    (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '')
  );
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
const superset = (a: readonly string[], b: readonly string[]) => b.every((x) => a.includes(x));

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function convert(dr: DestinationRule, host: string, exportTo: readonly string[]): MergedRule {
  const namespace = dr.metadata.namespace ?? 'default';
  return {
    host,
    namespace,
    from: [{ namespace, name: dr.metadata.name }],
    trafficPolicy: dr.spec?.trafficPolicy,
    subsets: [...(dr.spec?.subsets ?? [])],
    exportTo,
    selector: selectorOf(dr),
  };
}

function merge(t: HostTable, dr: DestinationRule, host: string, exportTo: readonly string[]) {
  const map = isWildcard(host) ? t.wildcard : t.specific;
  const list = map.get(host);
  if (!list) {
    map.set(host, [convert(dr, host, exportTo)]);
    return;
  }
  const selector = selectorOf(dr);
  let separately = true;
  for (const [i, have] of list.entries()) {
    if (sameSet(exportTo, have.exportTo)) separately = false;
    else if (have.exportTo.length > 0 && superset(exportTo, have.exportTo)) separately = true;
    else {
      separately = true;
      continue;
    }
    const bothWith = selector !== undefined && have.selector !== undefined;
    if (bothWith && !sameLabels(selector, have.selector ?? {})) {
      separately = true;
      continue;
    }
    if ((selector === undefined && have.selector === undefined) || bothWith) separately = false;
    const names = new Set(have.subsets.map((s) => s.name));
    list[i] = {
      ...have,
      from: [
        ...have.from,
        { namespace: dr.metadata.namespace ?? 'default', name: dr.metadata.name },
      ],
      subsets: [...have.subsets, ...(dr.spec?.subsets ?? []).filter((s) => !names.has(s.name))],
      trafficPolicy: have.trafficPolicy ?? dr.spec?.trafficPolicy,
    };
  }
  if (separately) list.push(convert(dr, host, exportTo));
}

function at(m: Map<string, HostTable>, ns: string): HostTable {
  let t = m.get(ns);
  if (!t) m.set(ns, (t = table()));
  return t;
}

/**
 * `defaultExportTo` is MeshConfig defaultDestinationRuleExportTo (only `.` and `*` are honoured
 * there, as istiod does).
 */
export function indexDestinationRules(
  rules: readonly DestinationRule[],
  rootNamespace: string,
  defaultExportTo: readonly string[] = [],
): SimDestinationRuleIndex {
  const index: SimDestinationRuleIndex = {
    rootNamespace,
    namespaceLocal: new Map(),
    exportedByNamespace: new Map(),
    rootNamespaceLocal: table(),
  };
  for (const dr of [...rules].sort(compareRules)) {
    const ns = dr.metadata.namespace ?? 'default';
    const host = resolveShortname(dr.spec?.host ?? '', ns);
    const exportTo = selectorOf(dr) === undefined ? [...new Set(dr.spec?.exportTo ?? [])] : ['.'];
    if (exportTo.length === 0 || exportTo.some((e) => e === '*' || e === '.' || e === ns))
      merge(at(index.namespaceLocal, ns), dr, host, exportTo);
    const privateOnly =
      (exportTo.length === 0 && defaultExportTo.includes('.')) ||
      (exportTo.length === 1 && (exportTo[0] === '.' || exportTo[0] === ns));
    if (!privateOnly) merge(at(index.exportedByNamespace, ns), dr, host, exportTo);
    else if (ns === rootNamespace) merge(index.rootNamespaceLocal, dr, host, exportTo);
  }
  return index;
}

function lookup(t: HostTable | undefined, host: string): MergedRule[] | undefined {
  return t ? mostSpecificHostMatch(host, t.specific, t.wildcard)?.value : undefined;
}

function exportedFrom(
  index: SimDestinationRuleIndex,
  owner: string,
  host: string,
  client: string,
): MergedRule[] {
  return (lookup(index.exportedByNamespace.get(owner), host) ?? []).filter(
    (r) => r.exportTo.length === 0 || r.exportTo.includes('*') || r.exportTo.includes(client),
  );
}

/** PushContext.destinationRule: the candidate rules for a service seen from `proxyNamespace`. */
export function candidateRules(
  index: SimDestinationRuleIndex,
  proxyNamespace: string,
  service: { hostname: string; namespace: string },
): MergedRule[] {
  const local =
    proxyNamespace !== index.rootNamespace
      ? lookup(index.namespaceLocal.get(proxyNamespace), service.hostname)
      : lookup(index.rootNamespaceLocal, service.hostname);
  if (local && local.length > 0) return local;
  const fromService = exportedFrom(index, service.namespace, service.hostname, proxyNamespace);
  if (fromService.length > 0) return fromService;
  return exportedFrom(index, index.rootNamespace, service.hostname, proxyNamespace);
}

/** SidecarScope.DestinationRule (outbound): a selecting rule of the proxy's namespace, else the catch-all. */
export function destinationRuleFor(
  index: SimDestinationRuleIndex,
  proxyNamespace: string,
  proxyLabels: Readonly<Record<string, string>>,
  service: { hostname: string; namespace: string },
): MergedRule | undefined {
  let catchAll: MergedRule | undefined;
  for (const r of candidateRules(index, proxyNamespace, service)) {
    if (r.selector === undefined) catchAll = r;
    else if (
      r.namespace === proxyNamespace &&
      Object.entries(r.selector).every(([k, v]) => proxyLabels[k] === v)
    )
      return r;
  }
  return catchAll;
}

/** Whether any rule could pick proxies by labels (then the outbound config is per proxy). */
export function hasSelectorRules(rules: readonly DestinationRule[]): boolean {
  return rules.some((r) => selectorOf(r) !== undefined);
}
