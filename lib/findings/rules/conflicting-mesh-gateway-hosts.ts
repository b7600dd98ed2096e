/**
 * IST0109 ConflictingMeshGatewayVirtualServiceHosts, as istioctl's
 * virtualservice.ConflictingMeshGatewayHostsAnalyzer reports it: VirtualServices bound to the
 * mesh gateway (no spec.gateways, or `mesh` among them) that define the same host for the same
 * namespaces. Once per VirtualService in any conflict.
 *
 * Istioctl's reading, kept here: each host is made a FQDN (a name without a dot and not
 * starting with `*` is a Service of the VirtualService's namespace, `.svc.cluster.local`
 * whatever the mesh's domain) and scoped by exportTo: none or `*` is every namespace (`*`),
 * else each namespace listed (`.` is the VirtualService's own). Two VirtualServices conflict on
 * the same scope and FQDN as written; a host scoped to namespaces also conflicts with every
 * host exported to all namespaces that it overlaps (a `*` suffix wildcard on either side), but
 * two hosts exported to all conflict only when equal. A VirtualService that lists one FQDN
 * twice conflicts with itself, as istioctl counts it.
 *
 * A VirtualService whose gateways or exportTo is not a list of strings is not judged (a
 * malformed object, MDX0002): which VirtualServices it would conflict with is not known.
 */
import type { KubeObject } from '../../kube/types';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { hostNameMatches } from '../gateway-hosts';
import { objectKey } from '../../refs/object-ref';
import { serviceFqdn } from '../../refs/service-host';
import { defineRule } from './rule';
import { list, specOf, strings } from './raw';

const CATALOG = defineCatalog('config', {
  conflictingMeshHosts: {
    code: 'IST0109',
    severity: 'error',
    title: 'ConflictingMeshGatewayVirtualServiceHosts',
    description:
      'Several VirtualServices bound to the mesh (sidecars) define the same host for the same namespaces: Istio merges them in an order it does not promise, so which routes, retries and timeouts a sidecar applies to that host is undefined and can change when any of them is edited.',
    istio: {
      since: '1.0',
      why: "VirtualServices bound to the mesh are Istio 1.0's; istioctl analyze reports IST0109 since 1.4. 1.0 is the earliest supported: no evidence of how older istiods ordered them.",
    },
  },
});

const ALL = '*';
const MESH = 'mesh';

/** One host of a mesh-bound VirtualService in one scope. */
interface Entry {
  vs: KubeObject;
  key: string;
  scope: string;
  fqdn: string;
}

/** A list of strings (absent or null: empty), or null when it is of another shape. */
function stringList(v: unknown): string[] | null {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return null;
  const out = strings(v);
  return out.length === list(v).length ? out : null;
}

/** Istioctl's ConvertHostToFQDN: a name without a dot and no leading `*` is a Service's. */
function hostFqdn(host: string, namespace: string): string {
  return host.startsWith('*') || host.includes('.') ? host : serviceFqdn(host, namespace);
}

/** The VirtualService's hosts in each scope it is exported to; [] when not bound to the mesh. */
function entries(vs: KubeObject): Entry[] {
  const spec = specOf(vs);
  if (spec === null) return [];
  const gateways = stringList(spec.gateways);
  const exportTo = stringList(spec.exportTo);
  if (gateways === null || exportTo === null) return [];
  if (gateways.length > 0 && !gateways.includes(MESH)) return [];
  const ns = vs.metadata.namespace ?? 'default';
  const scopes =
    exportTo.length === 0 || exportTo.includes(ALL)
      ? [ALL]
      : [...new Set(exportTo.map((e) => (e === '.' ? ns : e)))];
  const key = objectKey(ns, vs.metadata.name);
  return scopes.flatMap((scope) =>
    strings(spec.hosts).map((h) => ({ vs, key, scope, fqdn: hostFqdn(h, ns) })),
  );
}

/** What each conflicting VirtualService conflicts with: the others, its hosts in conflict. */
interface Conflict {
  vs: KubeObject;
  with: Set<string>;
  hosts: Set<string>;
}

export const CONFLICTING_MESH_GATEWAY_HOSTS = defineRule({
  id: 'conflicting-mesh-gateway-hosts',
  analyzer: 'virtualservice.ConflictingMeshGatewayHostsAnalyzer',
  catalog: CATALOG,
  claims: [{ code: 'IST0109', kinds: ['VirtualService'] }],
  reads: ['VirtualService'],
  check(ctx) {
    const byScopedHost = new Map<string, Entry[]>();
    for (const e of ctx.objects('VirtualService').flatMap(entries)) {
      const k = `${e.scope}/${e.fqdn}`;
      const group = byScopedHost.get(k);
      if (group === undefined) byScopedHost.set(k, [e]);
      else group.push(e);
    }
    const exportedToAll = [...byScopedHost.values()].flat().filter((e) => e.scope === ALL);
    const conflicts = new Map<string, Conflict>();
    for (const group of byScopedHost.values()) {
      const first = group[0];
      if (first === undefined) continue;
      const members =
        first.scope === ALL
          ? group
          : [...group, ...exportedToAll.filter((e) => hostNameMatches(first.fqdn, e.fqdn))];
      if (members.length < 2) continue;
      for (const m of members) {
        const c = conflicts.get(m.key) ?? { vs: m.vs, with: new Set(), hosts: new Set() };
        conflicts.set(m.key, c);
        c.hosts.add(`${m.scope}/${m.fqdn}`);
        for (const o of members) if (o.key !== m.key) c.with.add(o.key);
      }
    }
    return [...conflicts.values()].map((c): Finding => {
      const others = [...c.with].sort();
      const hosts = [...c.hosts].sort().join(', ');
      return {
        code: CATALOG.code.conflictingMeshHosts,
        severity: CATALOG.byKey.conflictingMeshHosts.severity,
        subject: {
          kind: 'VirtualService',
          namespace: c.vs.metadata.namespace,
          name: c.vs.metadata.name,
        },
        evidence: {
          // none: the VirtualService lists the host twice (its only conflict is with itself)
          conflictsWith: others.join(', ') || '(itself)',
          hosts,
        },
        fix: {
          why:
            others.length > 0
              ? `Merge the routes for ${hosts} into one VirtualService (with ${others.join(', ')}), or narrow their exportTo so no namespace sees both.`
              : `This VirtualService lists ${hosts} more than once (as written or as a short name and its FQDN): keep the host once.`,
        },
      };
    });
  },
});
