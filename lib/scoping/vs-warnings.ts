/**
 * What a proposed Sidecar does to VirtualService routing, as proposal warnings: the hosts it
 * keeps visible only because a VirtualService it imports routes to them (counted in the
 * prediction, so the YAML does not look like it explains the number), and the VirtualServices
 * that route a workload's observed calls today but would no longer be imported.
 */
import { firstAndMore } from '../text-list';
import { SCOPING_CODES as C } from './codes';
import type { WorkloadFacts } from './facts';
import type { MeshModel, Scope } from './scopes';
import { virtualServiceDestinations } from './virtualservices';
import type { ObjectRef } from '../refs/object-ref';
import { objectKey, scopedHost } from '../refs/object-ref';

export interface ProposalWarning {
  code: string;
  message: string;
}

const MAX_LISTED = 10;
const refText = (r: ObjectRef) => objectKey(r.namespace, r.name);

const listed = (items: readonly string[]) => firstAndMore(items, MAX_LISTED);

/** MDX0309: hosts the candidate scope sees only through an imported VirtualService. */
export function viaVirtualServiceWarning(candidate: Scope): ProposalWarning[] {
  const via = [...candidate.visibility.viaVirtualService.entries()].sort(([a], [b]) =>
    a.localeCompare(b),
  );
  if (via.length === 0) return [];
  const items = via.map(
    ([host, refs]) => `${host} (VirtualService ${refs.map(refText).join(', ')})`,
  );
  return [
    {
      code: C.virtualServiceDestination,
      message: `${via.length} host(s) stay visible without an egress host because an imported VirtualService routes to them (counted in the prediction): ${listed(items)}`,
    },
  ];
}

/**
 * MDX0310: VirtualServices imported today that route to a host a governed workload was seen
 * calling, but that the candidate scope no longer imports (its routing rules would be lost).
 */
export function lostVirtualServiceWarnings(
  facts: readonly WorkloadFacts[],
  candidate: Scope,
  model: MeshModel,
): ProposalWarning[] {
  const kept = new Set(candidate.visibility.virtualServices.map(refText));
  const lost = new Map<string, { workloads: Set<string>; hosts: Set<string> }>();
  for (const f of facts) {
    if (f.usedHosts.size === 0) continue;
    for (const ref of f.scope.visibility.virtualServices) {
      const key = refText(ref);
      if (kept.has(key)) continue;
      const vs = model.virtualServices.find((v) => refText(v.ref) === key);
      if (!vs) continue;
      const dests = virtualServiceDestinations(vs, f.workload.namespace);
      const used = [...dests.keys()].filter((h) => f.usedHosts.has(h));
      if (used.length === 0) continue;
      const entry = lost.get(key) ?? { workloads: new Set<string>(), hosts: new Set<string>() };
      entry.workloads.add(f.workload.key);
      for (const h of used) entry.hosts.add(h);
      lost.set(key, entry);
    }
  }
  return [...lost.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, e]) => {
      const vs = model.virtualServices.find((v) => refText(v.ref) === key);
      const add = (vs?.hosts ?? []).map((h) => scopedHost(vs?.ref.namespace ?? '', h));
      return {
        code: C.virtualServiceNotImported,
        message: `VirtualService ${key} routes ${listed([...e.workloads].sort())} to ${listed([...e.hosts].sort())} today but would not be imported: its routing rules are lost; add ${add.join(', ')} to the egress hosts to keep them`,
      };
    });
}
