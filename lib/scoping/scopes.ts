/**
 * Cluster counts per Sidecar scope. Every proxy of a namespace under the same Sidecar sees the
 * same services, so visibility and outbound clusters are computed once per (namespace, Sidecar)
 * and reused for all its proxies: the registry and DestinationRule index are built once.
 */
import type {
  DestinationRule,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../kube/types';
import { isExportedTo } from './hosts';
import {
  destinationRuleFor,
  indexDestinationRules,
  type DestinationRuleIndex,
} from './destinationrule';
import { outboundClusterKeys, outboundCountsByHost } from './outbound';
import {
  registryServices,
  selectSidecar,
  visibleInScope,
  type RegistryEntry,
  type SidecarSelection,
  type Visibility,
} from './visibility';
import { prepareVirtualService, type MeshVirtualService } from './virtualservices';
import { objectKey } from '../refs/object-ref';

export interface Scope {
  key: string;
  namespace: string;
  selection: SidecarSelection;
  visibility: Visibility;
  /** Outbound clusters of the scope. */
  outbound: number;
  /** Outbound clusters per visible hostname. */
  byHost: Map<string, number>;
}

export interface MeshModel {
  registry: RegistryEntry[];
  /** Registry entries by hostname. */
  hosts: Map<string, RegistryEntry[]>;
  servicesByNamespace: Map<string, Service[]>;
  destinationRules: DestinationRuleIndex;
  /** VirtualServices, hosts resolved: their destinations join the scopes that import them. */
  virtualServices: MeshVirtualService[];
  rootNamespace: string;
}

export function buildMeshModel(
  services: readonly Service[],
  serviceEntries: readonly ServiceEntry[],
  destinationRules: readonly DestinationRule[],
  rootNamespace: string,
  virtualServices: readonly VirtualService[] = [],
): MeshModel {
  const registry = registryServices(services, serviceEntries);
  const hosts = new Map<string, RegistryEntry[]>();
  for (const r of registry) {
    const list = hosts.get(r.entry.hostname);
    if (list) list.push(r);
    else hosts.set(r.entry.hostname, [r]);
  }
  const servicesByNamespace = new Map<string, Service[]>();
  for (const s of services) {
    const ns = s.metadata.namespace ?? 'default';
    const list = servicesByNamespace.get(ns);
    if (list) list.push(s);
    else servicesByNamespace.set(ns, [s]);
  }
  return {
    registry,
    hosts,
    servicesByNamespace,
    destinationRules: indexDestinationRules(destinationRules),
    virtualServices: virtualServices.map((v) => prepareVirtualService(v)),
    rootNamespace,
  };
}

/** Namespaces that hold a registry entry for `host` exported to `clientNs` (empty: unknown host). */
export function hostNamespaces(model: MeshModel, host: string, clientNs: string): string[] {
  const out = new Set<string>();
  for (const r of model.hosts.get(host) ?? []) {
    if (isExportedTo(r.exportTo, r.entry.namespace, clientNs)) out.add(r.entry.namespace);
  }
  return [...out].sort();
}

export interface ScopeResolver {
  sidecars: readonly Sidecar[];
  /** The scope a pod's proxy is in under this resolver's Sidecars. */
  scopeOf(pod: Pod): Scope;
  /** A scope for an explicit selection (e.g. a candidate Sidecar, or none = unscoped). */
  scopeWith(namespace: string, selection: SidecarSelection, key?: string): Scope;
}

function selectionKey(ns: string, sel: SidecarSelection): string {
  const s = sel.sidecar;
  return `${ns}|${sel.source}|${objectKey(s?.metadata.namespace ?? '', s?.metadata.name ?? '')}`;
}

export function createScopeResolver(model: MeshModel, sidecars: readonly Sidecar[]): ScopeResolver {
  const memo = new Map<string, Scope>();
  const podSelections = new Map<Pod, SidecarSelection>();

  function scopeWith(namespace: string, selection: SidecarSelection, key?: string): Scope {
    const k = key ?? selectionKey(namespace, selection);
    const hit = memo.get(k);
    if (hit) return hit;
    const visibility = visibleInScope(namespace, selection, model.registry, {
      virtualServices: model.virtualServices,
      hosts: model.hosts,
    });
    const keys = outboundClusterKeys(visibility.services, (svc) =>
      destinationRuleFor(
        svc.hostname,
        namespace,
        svc.namespace,
        model.destinationRules,
        model.rootNamespace,
      ),
    );
    const scope: Scope = {
      key: k,
      namespace,
      selection,
      visibility,
      outbound: keys.length,
      byHost: outboundCountsByHost(keys),
    };
    memo.set(k, scope);
    return scope;
  }

  return {
    sidecars,
    scopeOf(pod) {
      let sel = podSelections.get(pod);
      if (!sel) {
        sel = selectSidecar(pod, sidecars, model.rootNamespace);
        podSelections.set(pod, sel);
      }
      return scopeWith(pod.metadata.namespace ?? 'default', sel);
    },
    scopeWith,
  };
}
