/**
 * `~` exclusions in proposed egress hosts (Istio 1.31, istio/istio#60581): where a proposal
 * imports a whole namespace (`./*`, `istio-system/*`, `ns/*`) and some of its services are called
 * by none of the workloads the Sidecar governs, `~ns/host` takes them out again. Proposed only
 * where istiod reads them, only for hosts whose exclusion takes clusters off (the saving is the
 * candidate scope's, the same computation that predicts every other figure), and never for a
 * host a governed workload was seen calling, nor while any governed workload's usage is unknown.
 *
 * Older istiod: its validation takes a Sidecar namespace only as `*`, `.`, `~` or a DNS-1123
 * label (validateNamespaceSlashWildcardHostname), so `~ns/host` is rejected at admission
 * ("invalid namespace value"), and `~/host` is read as the namespace `~`, which holds nothing.
 */
import type { IstiodVersions } from '../findings/istiod';
import { compareIstioMinors } from '../findings/istio-version';
import { istiodVersionText } from '../findings/istiod';
import type { WorkloadFacts } from './facts';
import { parseEgressHosts } from './hosts';
import type { MeshModel, Scope } from './scopes';
import { hostsOverlap } from './virtualservices';
import { objectKey, scopedHost } from '../refs/object-ref';

/** The first Istio release whose istiod reads `~ns/host` and `~/host` as exclusions. */
export const EXCLUSIONS_SINCE = '1.31';

/** Whether the cluster's istiod reads exclusions, and what to say of it. */
export type ExclusionSupport =
  | { state: 'supported'; istiod: string }
  | { state: 'unsupported'; why: string }
  | { state: 'unknown'; why: string };

export function exclusionSupport(istiod: IstiodVersions): ExclusionSupport {
  const older = istiod.releases.filter((r) => compareIstioMinors(r.minor, EXCLUSIONS_SINCE) < 0);
  if (older.length > 0)
    return {
      state: 'unsupported',
      why: `istiod ${istiodVersionText({ releases: older })} is older than ${EXCLUSIONS_SINCE}: it rejects ~NAMESPACE/HOST egress hosts ("invalid namespace value") and reads ~/HOST as importing nothing`,
    };
  if (istiod.releases.length === 0 || istiod.unknown !== null)
    return { state: 'unknown', why: `istiod version unknown (${istiod.unknown ?? 'no istiod'})` };
  return { state: 'supported', istiod: istiodVersionText(istiod) };
}

/** The exclusions worth having in one proposal, and the clusters per proxy they take off. */
export interface ExclusionPlan {
  /** `~ns/host`, sorted. */
  hosts: string[];
  /** Outbound clusters per governed proxy: candidate without them minus candidate with them. */
  perProxy: number;
  /** In the proposed Sidecar (istiod reads them), else only said. */
  proposed: boolean;
  /** Why they are not proposed (istiod older or unknown); null when proposed. */
  notProposed: string | null;
  /** The candidate scope with them (what the plan predicts when proposed). */
  scope: Scope;
}

/** Namespaces a hosts list imports whole (`./*` -> the Sidecar's own, `ns/*`). */
function wholeNamespaces(hosts: readonly string[], sidecarNs: string): Set<string> {
  const out = new Set<string>();
  for (const h of parseEgressHosts(hosts).hosts) {
    if (h.exclude || h.dns !== '*') continue;
    if (h.namespace.kind === 'own') out.add(sidecarNs);
    else if (h.namespace.kind === 'named') out.add(h.namespace.name);
  }
  return out;
}

/** Every host of `ns`, seen by `base`, that no governed workload called and no VirtualService names. */
function unusedHosts(
  ctx: ExclusionContext,
  namespaces: ReadonlySet<string>,
  governed: readonly WorkloadFacts[],
  base: Scope,
): string[] {
  const out = new Set<string>();
  for (const { entry } of ctx.model.registry) {
    const h = entry.hostname;
    if (!namespaces.has(entry.namespace) || h.includes('*')) continue;
    if (!((base.byHost.get(h) ?? 0) > 0)) continue;
    if (governed.some((f) => f.usedHosts.has(h))) continue;
    if (ctx.namedByVirtualService(h)) continue;
    out.add(`~${scopedHost(entry.namespace, h)}`);
  }
  return [...out].sort();
}

/** Nothing the governed workloads use is cut off, and no VirtualService import is lost. */
function keepsEverything(governed: readonly WorkloadFacts[], base: Scope, next: Scope): boolean {
  for (const f of governed)
    for (const h of f.usedHosts.keys()) if (base.byHost.has(h) && !next.byHost.has(h)) return false;
  const kept = new Set(next.visibility.virtualServices.map((r) => objectKey(r.namespace, r.name)));
  return base.visibility.virtualServices.every((r) => kept.has(objectKey(r.namespace, r.name)));
}

export interface ExclusionContext {
  model: MeshModel;
  support: ExclusionSupport;
  /**
   * A (concrete) host some VirtualService names: its callers may call it by that name while its
   * routes go elsewhere, so it is never excluded.
   */
  namedByVirtualService: (host: string) => boolean;
}

/** What every proposal's exclusions read, built once per plan. */
export function exclusionContext(model: MeshModel, support: ExclusionSupport): ExclusionContext {
  const exact = new Set<string>();
  const wildcards: string[] = [];
  for (const v of model.virtualServices)
    for (const vh of v.hosts) {
      if (vh.startsWith('*')) wildcards.push(vh);
      else exact.add(vh);
    }
  return {
    model,
    support,
    namedByVirtualService: (h) => exact.has(h) || wildcards.some((w) => hostsOverlap(w, h)),
  };
}

/**
 * The exclusions that pay for a proposal with `hosts` (its candidate scope `base`) governing
 * `governed`, or null: none pays, or some governed workload's usage is unknown (not unused).
 */
export function planExclusions(
  ctx: ExclusionContext,
  /** The scope a Sidecar of the proposal's namespace and level with these egress hosts gives. */
  scopeFor: (hosts: readonly string[]) => Scope,
  sidecarNs: string,
  hosts: readonly string[],
  governed: readonly WorkloadFacts[],
  base: Scope,
): ExclusionPlan | null {
  if (governed.length === 0 || governed.some((f) => !f.observed)) return null;
  let wanted = unusedHosts(ctx, wholeNamespaces(hosts, sidecarNs), governed, base);
  if (wanted.length === 0) return null;
  let scope = scopeFor([...hosts, ...wanted]);
  // only those whose host went: one still seen (another namespace's, a VirtualService's
  // destination) saves nothing and stays out of the YAML
  const gone = (raw: string) => !scope.byHost.has(raw.slice(raw.indexOf('/') + 1));
  if (!wanted.every(gone)) {
    wanted = wanted.filter(gone);
    if (wanted.length === 0) return null;
    scope = scopeFor([...hosts, ...wanted]);
  }
  const perProxy = base.outbound - scope.outbound;
  if (perProxy <= 0 || !keepsEverything(governed, base, scope)) return null;
  const proposed = ctx.support.state === 'supported';
  return {
    hosts: wanted,
    perProxy,
    proposed,
    notProposed: ctx.support.state === 'supported' ? null : ctx.support.why,
    scope,
  };
}
