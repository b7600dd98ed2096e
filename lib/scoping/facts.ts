/**
 * Per-workload facts the plan, the checks and the report share: what it was seen calling
 * (registry hosts and their namespaces), whether any source could be read, and which of its
 * calls the Sidecar that applies today cuts off.
 */
import { hostNamespaces, type MeshModel, type Scope, type ScopeResolver } from './scopes';
import {
  emptyTraffic,
  isObserved,
  OUTBOUND_CATCH_ALL,
  type TrafficIndex,
  type WorkloadTraffic,
} from './observations';
import type { SidecarWorkload } from './workloads';

export interface WorkloadFacts {
  workload: SidecarWorkload;
  traffic: WorkloadTraffic;
  observed: boolean;
  /** Called hosts found in the registry (exported to the workload's namespace) -> namespaces. */
  usedHosts: Map<string, string[]>;
  /** Called hosts not in the registry (external, IPs, PassthroughCluster). */
  unknownHosts: string[];
  calledNamespaces: Set<string>;
  /** Seen calling anything at all (registry or not). */
  callsOut: boolean;
  /** The scope of its first pod today. */
  scope: Scope;
}

export function workloadFacts(
  workloads: readonly SidecarWorkload[],
  traffic: TrafficIndex,
  model: MeshModel,
  before: ScopeResolver,
): WorkloadFacts[] {
  return workloads.flatMap((w) => {
    const first = w.pods[0];
    if (!first) return [];
    const t = traffic.byWorkload.get(w.key) ?? emptyTraffic();
    const usedHosts = new Map<string, string[]>();
    const unknownHosts: string[] = [];
    const calledNamespaces = new Set<string>();
    for (const d of t.destinations.values()) {
      const nss = OUTBOUND_CATCH_ALL.has(d.host) ? [] : hostNamespaces(model, d.host, w.namespace);
      if (nss.length === 0) {
        unknownHosts.push(d.host);
        continue;
      }
      usedHosts.set(d.host, nss);
      for (const n of nss) calledNamespaces.add(n);
    }
    return [
      {
        workload: w,
        traffic: t,
        observed: isObserved(t),
        usedHosts,
        unknownHosts: unknownHosts.sort(),
        calledNamespaces,
        callsOut: t.destinations.size > 0,
        scope: before.scopeOf(first),
      },
    ];
  });
}

/** Used registry hosts that `scope` does not make visible. */
export function cutOffHosts(f: WorkloadFacts, scope: Scope): string[] {
  return [...f.usedHosts.keys()].filter((h) => !scope.byHost.has(h)).sort();
}
