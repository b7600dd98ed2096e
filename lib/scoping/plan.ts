/**
 * Which Sidecars to propose: for each namespace a default (`./*`, the control plane, the
 * namespaces its workloads call), replacements for workload Sidecars that cut off observed calls
 * or carry more than needed, and per-workload Sidecars where a workload needs less than its
 * namespace default. Returns the Sidecar set as it would be after applying the proposals.
 */
import type { Pod, Sidecar } from '../kube/types';
import { cutOffHosts, type WorkloadFacts } from './facts';
import {
  exclusionContext,
  planExclusions,
  type ExclusionContext,
  type ExclusionPlan,
  type ExclusionSupport,
} from './exclusions';
import { buildSidecar, standardHosts } from './generate';
import type { MeshModel, Scope, ScopeResolver } from './scopes';
import type { SidecarSelection } from './visibility';
import { lostVirtualServiceWarnings, viaVirtualServiceWarning } from './vs-warnings';
import { uniqueSelector } from './workloads';
import { objectKeyOf, objectText } from '../refs/object-ref';

export type PlanAction = 'create' | 'replace' | 'unchanged';

export interface PlannedSidecar {
  namespace: string;
  name: string;
  level: 'namespace' | 'workload';
  /** Workload keys (ns/name) this Sidecar governs after applying. */
  workloads: string[];
  selector: Record<string, string> | null;
  /** Egress hosts as proposed (exclusions included when istiod reads them). */
  hosts: string[];
  /** `~ns/host` exclusions that pay, proposed or only said (istiod older or unknown); null: none. */
  exclusions: ExclusionPlan | null;
  action: PlanAction;
  /** The proposal is included in the predicted counts (create/replace). */
  apply: boolean;
  sidecar: Sidecar;
  replaces: Sidecar | null;
  /** Other selector-less Sidecars of the namespace to delete with it (IST0111 conflict). */
  deletes: Sidecar[];
  warnings: { code: string; message: string }[];
}

export interface Plan {
  proposals: PlannedSidecar[];
  afterSidecars: Sidecar[];
  /** Workloads that needed their own Sidecar but have no label set that selects only them. */
  noSelector: string[];
}

export interface PlanContext {
  model: MeshModel;
  before: ScopeResolver;
  facts: readonly WorkloadFacts[];
  podsByNamespace: Map<string, Pod[]>;
  sidecars: readonly Sidecar[];
  istioNamespace: string;
  /** Whether the cluster's istiod reads `~` exclusions (Istio 1.31+). */
  exclusions: ExclusionSupport;
}

function ref(s: Sidecar): string {
  return objectKeyOf(s);
}

function candidateScope(
  ctx: PlanContext,
  ns: string,
  sidecar: Sidecar,
  level: 'namespace' | 'workload',
): Scope {
  const selection: SidecarSelection = { sidecar, source: level, conflicts: [] };
  const hosts = sidecar.spec.egress?.[0]?.hosts.join(',') ?? '';
  return ctx.before.scopeWith(ns, selection, `${ns}|candidate|${hosts}`);
}

interface Candidate {
  hosts: string[];
  sidecar: Sidecar;
  scope: Scope;
  /** The exclusions that pay; when istiod does not read them, worked out only when asked. */
  exclusions: () => ExclusionPlan | null;
}

/**
 * The candidate for `hosts` governing `governed`: its Sidecar and scope, with the exclusions that
 * pay added when istiod reads them (else only said, for the proposals that are made).
 */
function candidate(
  ctx: PlanContext,
  excl: ExclusionContext,
  ns: string,
  level: 'namespace' | 'workload',
  hosts: string[],
  governed: readonly WorkloadFacts[],
  build: (hosts: string[]) => Sidecar,
): Candidate {
  const sidecar = build(hosts);
  const scope = candidateScope(ctx, ns, sidecar, level);
  const scopeFor = (h: readonly string[]) => candidateScope(ctx, ns, build([...h]), level);
  const plan = () => planExclusions(excl, scopeFor, ns, hosts, governed, scope);
  if (excl.support.state !== 'supported') {
    let said: ExclusionPlan | null | undefined;
    return {
      hosts,
      sidecar,
      scope,
      exclusions: () => (said === undefined ? (said = plan()) : said),
    };
  }
  const exclusions = plan();
  if (!exclusions) return { hosts, sidecar, scope, exclusions: () => null };
  const all = [...hosts, ...exclusions.hosts];
  return { hosts: all, sidecar: build(all), scope: exclusions.scope, exclusions: () => exclusions };
}

function union(facts: readonly WorkloadFacts[]): Set<string> {
  const out = new Set<string>();
  for (const f of facts) for (const n of f.calledNamespaces) out.add(n);
  return out;
}

function droppedHosts(existing: Sidecar | undefined, hosts: readonly string[]): string[] {
  const all = (existing?.spec?.egress ?? []).flatMap((e) => e.hosts ?? []);
  return [...new Set(all)].filter((h) => !hosts.includes(h) && h !== '~/*').sort();
}

function decide(
  current: Scope,
  candidate: Scope,
  cut: boolean,
  unobserved: number,
  hasExisting: boolean,
): PlanAction {
  const act: PlanAction = hasExisting ? 'replace' : 'create';
  if (current.selection.source === 'none') return 'create';
  if (cut) return act;
  if (unobserved > 0) return 'unchanged';
  return candidate.outbound < current.outbound ? act : 'unchanged';
}

function warningsFor(
  facts: readonly WorkloadFacts[],
  existing: Sidecar | undefined,
  hosts: readonly string[],
): PlannedSidecar['warnings'] {
  const out: PlannedSidecar['warnings'] = [];
  const unobserved = facts.filter((f) => !f.observed).map((f) => f.workload.key);
  if (unobserved.length > 0) {
    out.push({
      code: 'MDX0308',
      message: `${unobserved.length} workload(s) without any traffic source: ${unobserved.join(', ')}`,
    });
  }
  const dropped = droppedHosts(existing, hosts);
  if (dropped.length > 0) {
    out.push({
      code: 'MDX0306',
      message: `hosts of the current Sidecar left out: ${dropped.join(', ')}`,
    });
  }
  return out;
}

/** What the candidate does to VirtualService routing (only for proposals that will apply). */
function routingWarnings(
  ctx: PlanContext,
  facts: readonly WorkloadFacts[],
  candidate: Scope,
): PlannedSidecar['warnings'] {
  return [
    ...lostVirtualServiceWarnings(facts, candidate, ctx.model),
    ...viaVirtualServiceWarning(candidate),
  ];
}

function freeName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let i = 2; taken.has(name); i++) name = `${wanted}-${i}`;
  taken.add(name);
  return name;
}

export function planSidecars(ctx: PlanContext): Plan {
  const proposals: PlannedSidecar[] = [];
  const noSelector: string[] = [];
  const excl = exclusionContext(ctx.model, ctx.exclusions);
  const taken = new Map<string, Set<string>>();
  for (const s of ctx.sidecars) {
    const ns = s.metadata.namespace ?? 'default';
    const set = taken.get(ns) ?? new Set<string>();
    set.add(s.metadata.name);
    taken.set(ns, set);
  }
  const namesIn = (ns: string) => {
    const set = taken.get(ns) ?? new Set<string>();
    taken.set(ns, set);
    return set;
  };

  // 1. Workload-level Sidecars in use today.
  const byOwn = new Map<string, { sidecar: Sidecar; facts: WorkloadFacts[] }>();
  for (const f of ctx.facts) {
    const s = f.scope.selection.sidecar;
    if (f.scope.selection.source !== 'workload' || !s) continue;
    const entry = byOwn.get(ref(s)) ?? { sidecar: s, facts: [] };
    entry.facts.push(f);
    byOwn.set(ref(s), entry);
  }
  for (const { sidecar, facts } of byOwn.values()) {
    const ns = sidecar.metadata.namespace ?? 'default';
    const c = candidate(
      ctx,
      excl,
      ns,
      'workload',
      standardHosts(ns, union(facts), ctx.istioNamespace),
      facts,
      (hosts) =>
        buildSidecar({ name: sidecar.metadata.name, namespace: ns, hosts, replaces: sidecar }),
    );
    const { hosts, sidecar: obj, scope: cand } = c;
    const cut = facts.some((f) => cutOffHosts(f, f.scope).length > 0);
    const unobserved = facts.filter((f) => !f.observed).length;
    const current = facts[0]?.scope ?? cand;
    const action = decide(current, cand, cut, unobserved, true);
    if (action === 'unchanged') continue;
    proposals.push({
      namespace: ns,
      name: sidecar.metadata.name,
      level: 'workload',
      workloads: facts.map((f) => f.workload.key),
      selector: obj.spec.workloadSelector?.labels ?? null,
      hosts,
      exclusions: c.exclusions(),
      action,
      apply: true,
      sidecar: obj,
      replaces: sidecar,
      deletes: [],
      warnings: [...warningsFor(facts, sidecar, hosts), ...routingWarnings(ctx, facts, cand)],
    });
  }

  // 2. Namespace defaults (never in the root namespace: there it would become the mesh default).
  const governedBy = new Map<string, WorkloadFacts[]>();
  for (const f of ctx.facts) {
    if (f.scope.selection.source === 'workload') continue;
    const list = governedBy.get(f.workload.namespace) ?? [];
    list.push(f);
    governedBy.set(f.workload.namespace, list);
  }
  const nsDefaults = new Map<
    string,
    { proposal: PlannedSidecar; standard: string[]; scope: Scope }
  >();
  for (const [ns, governed] of [...governedBy.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (ns === ctx.model.rootNamespace) continue;
    const current = governed[0]?.scope;
    if (!current) continue;
    const existing =
      current.selection.source === 'namespace' ? current.selection.sidecar : undefined;
    const standard = standardHosts(
      ns,
      union(governed.filter((f) => f.observed)),
      ctx.istioNamespace,
    );
    const name = existing?.metadata.name ?? freeName('default', namesIn(ns));
    const c = candidate(ctx, excl, ns, 'namespace', standard, governed, (hosts) =>
      buildSidecar({ name, namespace: ns, hosts, replaces: existing }),
    );
    const { hosts, sidecar: obj, scope: cand } = c;
    const cut = governed.some((f) => cutOffHosts(f, f.scope).length > 0);
    const unobserved = governed.filter((f) => !f.observed).length;
    // Two selector-less Sidecars in a namespace (IST0111): istiod uses the oldest, so the
    // proposal only holds if the others go; name them, and predict as if they are deleted.
    const deletes = ctx.sidecars.filter(
      (s) =>
        (s.metadata.namespace ?? 'default') === ns &&
        Object.keys(s.spec?.workloadSelector?.labels ?? {}).length === 0 &&
        s !== existing,
    );
    const decided = decide(current, cand, cut, unobserved, existing !== undefined);
    const action: PlanAction =
      decided === 'unchanged' && deletes.length > 0 && !cut ? 'replace' : decided;
    const warnings = warningsFor(governed, existing, hosts);
    if (action !== 'unchanged') warnings.push(...routingWarnings(ctx, governed, cand));
    if (deletes.length > 0) {
      const names = deletes.map((s) => s.metadata.name).sort();
      warnings.unshift({
        code: 'IST0111',
        message: `delete ${names.map((n) => objectText('Sidecar', { namespace: ns, name: n })).join(', ')} as well: only one Sidecar without workloadSelector may exist in ${ns} (kubectl -n ${ns} delete sidecar ${names.join(' ')})`,
      });
    }
    const proposal: PlannedSidecar = {
      namespace: ns,
      name,
      level: 'namespace',
      workloads: governed.map((f) => f.workload.key),
      selector: null,
      hosts,
      exclusions: c.exclusions(),
      action,
      apply: action !== 'unchanged',
      sidecar: obj,
      replaces: existing ?? null,
      deletes,
      warnings,
    };
    proposals.push(proposal);
    nsDefaults.set(ns, { proposal, standard, scope: proposal.apply ? cand : current });
  }

  // 3. Per-workload Sidecars where a workload needs less than its namespace default gives it.
  for (const [ns, governed] of governedBy) {
    const def = nsDefaults.get(ns);
    for (const f of governed) {
      if (!f.observed) continue;
      const standard = standardHosts(ns, f.calledNamespaces, ctx.istioNamespace);
      if (def && standard.join(',') === def.standard.join(',')) continue;
      const base = def?.scope ?? f.scope;
      const probe = candidate(ctx, excl, ns, 'workload', standard, [f], (hosts) =>
        buildSidecar({ name: f.workload.name, namespace: ns, hosts }),
      );
      const { hosts, scope: cand } = probe;
      if (cand.outbound >= base.outbound) continue;
      const selector = uniqueSelector(f.workload, ctx.podsByNamespace.get(ns) ?? []);
      if (!selector) {
        noSelector.push(f.workload.key);
        continue;
      }
      const name = freeName(f.workload.name, namesIn(ns));
      const obj = buildSidecar({ name, namespace: ns, hosts, selector });
      if (def) def.proposal.workloads = def.proposal.workloads.filter((k) => k !== f.workload.key);
      proposals.push({
        namespace: ns,
        name,
        level: 'workload',
        workloads: [f.workload.key],
        selector,
        hosts,
        exclusions: probe.exclusions(),
        action: 'create',
        apply: true,
        sidecar: obj,
        replaces: null,
        deletes: [],
        warnings: routingWarnings(ctx, [f], cand),
      });
    }
  }

  // a default left governing no workload (each got its own) saves nothing by exclusions
  for (const { proposal, standard } of nsDefaults.values()) {
    if (proposal.workloads.length > 0 || !proposal.exclusions) continue;
    if (proposal.exclusions.proposed) {
      proposal.hosts = standard;
      proposal.sidecar = buildSidecar({
        name: proposal.name,
        namespace: proposal.namespace,
        hosts: standard,
        replaces: proposal.replaces ?? undefined,
      });
    }
    proposal.exclusions = null;
  }

  const replaced = new Set(
    proposals
      .filter((p) => p.apply)
      .flatMap((p) => [...(p.replaces ? [p.replaces] : []), ...p.deletes])
      .map(ref),
  );
  const afterSidecars = [
    ...ctx.sidecars.filter((s) => !replaced.has(ref(s))),
    ...proposals.filter((p) => p.apply).map((p) => p.sidecar),
  ];
  proposals.sort(
    (a, b) =>
      a.namespace.localeCompare(b.namespace) ||
      (a.level === b.level ? 0 : a.level === 'namespace' ? -1 : 1) ||
      a.name.localeCompare(b.name),
  );
  return { proposals, afterSidecars, noSelector: noSelector.sort() };
}
