/**
 * MDX0312 (meshdx's own, beyond istioctl; Kiali's KIA1202 "serviceentries.multimatch", since
 * renumbered KIA1211): two ServiceEntries seen by the same namespace declare one host (as
 * written, so `*.example.com` is one host and `api.example.com` another) and one port number
 * with the same protocol, but a different resolution, location, addresses or endpoints. An
 * entry seen with one that gives the host:port another protocol is IST0177's
 * (service-entry-protocol.ts) for that host:port and left to it, whatever else differs; two
 * entries that declare the same thing are no conflict.
 *
 * What istiod does with them (istio/istio pilot/pkg/serviceregistry/serviceentry and
 * pilot/pkg/model):
 * - every host of every entry is a service of its own (conversion.go, convertServices);
 * - in one namespace the endpoints of every entry of a host are merged into one set
 *   (mergeServicesInstancesByNamespaceHost; with DNS_ROUND_ROBIN only the first entry's
 *   endpoint per port is kept), while a proxy's scope keeps the oldest entry's service and adds
 *   a younger one's ports only when resolution, labels, selector and exportTo are the same and
 *   only the port numbers it lacks (sidecar.go, appendSidecarServices, canMergeServices): the
 *   oldest entry defines the port, its resolution, location and addresses, and traffic goes to
 *   the endpoints of both;
 * - across namespaces a proxy gets one namespace's service per host: its own namespace's, else
 *   the first listed (entries exported to its namespace by name before those exported to all,
 *   older first; sidecar.go selectServices calls the choice arbitrary), and the other entry's
 *   port, endpoints and settings are not used there. A namespace that sees both and owns one
 *   gets its own: that is an override, deterministic, and not reported.
 * Endpoints are matched to a service's port by name (EndpointShards.CopyEndpoints), and the
 * endpoint set of a namespace's host holds every entry's, whatever their exportTo: two entries
 * of one namespace exported to different namespaces still give each other's proxies their
 * endpoints when their ports have the same name, which is reported too.
 * "Seen by" is the entry's exportTo as istiod reads it (push_context.go initServiceRegistry):
 * none is the mesh config's defaultServiceExportTo (`*` by default), `*` every namespace, `.`
 * its own, `~` none (unless `*` is listed too), a name that namespace. The mesh config's
 * serviceEntryVisibility is not read. Endpoints are compared by address (or by the selector
 * of the workloads they come from) and only when a resolution uses them (not NONE on both).
 * Reported once per entry and host:port, naming the other entries; an entry whose fields have
 * another type than the API's is not judged.
 */
import type { KubeObject } from '../../kube/types';
import { objectKey } from '../../refs/object-ref';
import { isExportedTo } from '../../scoping/hosts';
import { defineCatalog } from '../catalog';
import type { Finding } from '../types';
import { defineRule } from './rule';
import { obj, objects, specOf, str, stringMap, strings } from './raw';

const CATALOG = defineCatalog('scoping', {
  conflictingEntries: {
    code: 'MDX0312',
    severity: 'warning',
    title: 'ConflictingServiceEntries',
    description:
      "ServiceEntries seen by the same namespace declare one host and port with the same protocol but a different resolution, location, addresses or endpoints: a proxy gets one service per host. In one namespace the oldest entry defines the port and the endpoints of all are merged into one cluster; across namespaces a proxy gets its own namespace's entry, else one istiod picks, and the other's endpoints and settings are not used there. Traffic goes to endpoints, or is resolved in a way, that one of the authors did not write.",
    istio: {
      since: '1.3',
      why: "A proxy gets one namespace's ServiceEntry per host since Istio 1.3 (istio/istio#13631, pilot/pkg/model/sidecar.go selectServices); istiod keys a host's endpoints by namespace and host (pilot/pkg/serviceregistry/serviceentry, read at 1.22 and 1.30); the rules for merging a younger entry's ports are 1.22's (#49595).",
    },
  },
});

/** A namespace no exportTo names: what `*` reaches beyond the namespaces written. */
const ELSEWHERE = '\u0000elsewhere';
const FIELDS = ['resolution', 'location', 'addresses', 'endpoints'] as const;
type Field = (typeof FIELDS)[number];

interface Declared {
  se: KubeObject;
  key: string;
  ns: string;
  name: string;
  created: number;
  exportTo: string[];
  protocol: string;
  portName: string;
  values: Record<Field, string>;
}

/** An optional field of the API's type: the value, or undefined when absent; null when not. */
function optional<T>(v: unknown, read: (x: unknown) => T | undefined): T | undefined | null {
  if (v === undefined || v === null) return undefined;
  const r = read(v);
  return r === undefined ? null : r;
}

const enumValue = (v: unknown, fallback: string): string | null => {
  const s = optional(v, str);
  return s === null ? null : (s ?? fallback).toUpperCase();
};
const stringList = (v: unknown): string[] | undefined | null =>
  optional(v, (x) => (Array.isArray(x) ? strings(x) : undefined));

/** The endpoints an entry gives: its endpoints' addresses, or the workloads it selects. */
function endpointsOf(spec: Readonly<Record<string, unknown>>): string | null {
  if (spec.workloadSelector !== undefined && spec.workloadSelector !== null) {
    const ws = obj(spec.workloadSelector);
    if (ws === null || (ws.labels !== undefined && ws.labels !== null && obj(ws.labels) === null))
      return null;
    const labels = Object.entries(stringMap(ws.labels))
      .map(([k, v]) => `${k}=${v}`)
      .sort();
    return `workloads ${labels.join(',')}`;
  }
  if (spec.endpoints !== undefined && spec.endpoints !== null && !Array.isArray(spec.endpoints))
    return null;
  const addresses = objects(spec.endpoints).map((e) => str(e.address) ?? '(no address)');
  return [...new Set(addresses)].sort().join(', ');
}

/** The entry's declarations of host:port, or [] when it cannot be read as the API has it. */
function declarations(se: KubeObject): { slot: string; host: string; port: number; d: Declared }[] {
  const spec = specOf(se);
  if (spec === null) return [];
  const exportTo = stringList(spec.exportTo);
  const addresses = stringList(spec.addresses);
  const resolution = enumValue(spec.resolution, 'NONE');
  const location = enumValue(spec.location, 'MESH_EXTERNAL');
  const endpoints = endpointsOf(spec);
  if (exportTo === null || addresses === null || resolution === null || location === null)
    return [];
  if (endpoints === null) return [];
  const ns = se.metadata.namespace ?? 'default';
  const created = Date.parse(str(se.metadata.creationTimestamp) ?? '');
  const base = {
    se,
    key: objectKey(ns, se.metadata.name),
    ns,
    name: se.metadata.name,
    created,
    exportTo: exportTo ?? [],
    values: {
      resolution,
      location,
      addresses: [...new Set(addresses ?? [])].sort().join(', '),
      endpoints,
    },
  };
  const out: { slot: string; host: string; port: number; d: Declared }[] = [];
  for (const host of new Set(strings(spec.hosts))) {
    for (const p of objects(spec.ports)) {
      const port = p.number;
      if (typeof port !== 'number' || !Number.isInteger(port) || port <= 0) continue;
      const protocol = (str(p.protocol) ?? '').toUpperCase();
      const portName = str(p.name) ?? '';
      out.push({
        slot: JSON.stringify([host, port]),
        host,
        port,
        d: { ...base, protocol, portName },
      });
    }
  }
  return out;
}

/** `~` alone (without `*`) hides an entry from every namespace. */
const hidden = (exportTo: readonly string[]): boolean => {
  const e = exportTo.map((x) => x.trim());
  return e.includes('~') && !e.includes('*');
};

/** Which of the two is istiod's first: older, then by name; null when an age is unknown. */
function older(a: Declared, b: Declared): Declared | null {
  if (Number.isNaN(a.created) || Number.isNaN(b.created)) return null;
  if (a.created !== b.created) return a.created < b.created ? a : b;
  return a.name.localeCompare(b.name) <= 0 ? a : b;
}

/**
 * The namespaces that see both, as the evidence says them. ELSEWHERE among them means both
 * reach every namespace no exportTo names: both are exported to all.
 */
function namespacesText(viewers: readonly string[], a: Declared, b: Declared): string {
  if (!viewers.includes(ELSEWHERE)) return [...viewers].sort().join(', ');
  return a.ns === b.ns ? 'every namespace' : `every namespace but ${a.ns} and ${b.ns}`;
}

interface Conflict {
  other: Declared;
  differs: Field[];
  /** The namespaces that see both; null when none does. */
  seenIn: string | null;
  outcome: string;
}

/** The namespaces that see both entries (ELSEWHERE: those no exportTo names). */
function viewersOf(a: Declared, b: Declared, fallback: readonly string[]): string[] {
  const exportOf = (d: Declared) => (d.exportTo.length > 0 ? d.exportTo : fallback);
  if (hidden(exportOf(a)) || hidden(exportOf(b))) return [];
  const candidates = new Set([a.ns, b.ns, ...exportOf(a), ...exportOf(b), ELSEWHERE]);
  for (const special of ['*', '.', '~']) candidates.delete(special);
  const sees = (d: Declared, v: string) => isExportedTo(d.exportTo, d.ns, v, fallback);
  return [...candidates].filter((v) => sees(a, v) && sees(b, v));
}

function conflict(a: Declared, b: Declared, fallback: readonly string[]): Conflict | null {
  if (a.key === b.key || a.protocol !== b.protocol) return null;
  const resolving = a.values.resolution !== 'NONE' || b.values.resolution !== 'NONE';
  let differs = FIELDS.filter(
    (f) => a.values[f] !== b.values[f] && (f !== 'endpoints' || resolving),
  );
  if (differs.length === 0) return null;
  const sameNs = a.ns === b.ns;
  // endpoints are matched to a service's port by name (EndpointShards.CopyEndpoints)
  const sameName = a.portName === b.portName;
  let viewers = viewersOf(a, b, fallback);
  // a namespace that owns one of two namespaces' entries gets its own: an override
  if (!sameNs) viewers = viewers.filter((v) => v !== a.ns && v !== b.ns);
  if (viewers.length === 0) {
    // seen apart, yet one namespace holds one endpoint set per host: each gets the other's
    const visible = (d: Declared) => !hidden(d.exportTo.length > 0 ? d.exportTo : fallback);
    if (!sameNs || !sameName || !differs.includes('endpoints') || !(visible(a) || visible(b)))
      return null;
    differs = ['endpoints'];
    return {
      other: b,
      differs,
      seenIn: null,
      outcome: `exported to different namespaces, but ${a.ns} holds one endpoint set for the host: the proxies that see either entry get the endpoints of both`,
    };
  }
  const seenIn = namespacesText(viewers, a, b);
  const first = older(a, b);
  const definer = first === null ? 'the older entry' : first.key;
  const outcome = !sameNs
    ? `proxies in ${seenIn} get one of the two (istiod keeps one namespace's service per host); the other's endpoints and settings are not used there`
    : `one service in ${a.ns}: ${definer} defines the port (its resolution, location and addresses)` +
      (sameName
        ? ' and the endpoints of both are merged'
        : "; the other's endpoints are not used (its port has another name, and endpoints are matched by port name)");
  return { other: b, differs, seenIn, outcome };
}

/** IST0177's: the entry declares the host:port with another protocol than one it is seen with. */
const protocolConflict = (e: Declared, entries: readonly Declared[], fallback: readonly string[]) =>
  entries.some(
    (o) => o.key !== e.key && o.protocol !== e.protocol && viewersOf(e, o, fallback).length > 0,
  );

export const SERVICE_ENTRY_CONFLICTS = defineRule({
  id: 'service-entry-conflicts',
  analyzer: null,
  catalog: CATALOG,
  claims: [],
  reads: ['ServiceEntry', 'ConfigMap'],
  check(ctx) {
    const meshDefault = strings(ctx.meshConfig?.defaultServiceExportTo);
    const fallback = meshDefault.length > 0 ? meshDefault : ['*'];
    const slots = new Map<string, { host: string; port: number; entries: Declared[] }>();
    for (const se of ctx.objects('ServiceEntry')) {
      for (const { slot, host, port, d } of declarations(se)) {
        const s = slots.get(slot) ?? { host, port, entries: [] };
        if (!s.entries.some((e) => e.key === d.key)) s.entries.push(d);
        slots.set(slot, s);
      }
    }
    const out: Finding[] = [];
    for (const k of [...slots.keys()].sort()) {
      const slot = slots.get(k);
      if (slot === undefined || slot.entries.length < 2) continue;
      const entries = [...slot.entries].sort((x, y) => x.key.localeCompare(y.key));
      for (const e of entries) {
        if (protocolConflict(e, entries, fallback)) continue;
        const found = entries.flatMap((o) => conflict(e, o, fallback) ?? []);
        if (found.length === 0) continue;
        const one = found.length === 1;
        const each = (c: Conflict, text: string) => (one ? text : `with ${c.other.key}: ${text}`);
        out.push({
          code: CATALOG.code.conflictingEntries,
          severity: CATALOG.byKey.conflictingEntries.severity,
          subject: { kind: 'ServiceEntry', namespace: e.ns, name: e.name },
          part: { kind: 'host', name: `${slot.host}:${slot.port}` },
          evidence: {
            host: slot.host,
            port: slot.port,
            protocol: e.protocol === '' ? '(unset)' : e.protocol,
            conflictsWith: found.map((c) => c.other.key).join(', '),
            differs: [...new Set(found.flatMap((c) => c.differs))].join(', '),
            resolution: e.values.resolution,
            location: e.values.location,
            addresses: e.values.addresses === '' ? null : e.values.addresses,
            endpoints: e.values.endpoints === '' ? null : e.values.endpoints,
            seenTogetherIn: found.every((c) => c.seenIn === null)
              ? null
              : found.map((c) => each(c, c.seenIn ?? 'none')).join('; '),
            outcome: found.map((c) => each(c, c.outcome)).join('; '),
          },
          fix: {
            why: found.every((c) => c.other.ns === e.ns)
              ? `Declare ${slot.host}:${slot.port} in one ServiceEntry (merge them): in one namespace istiod applies the older entry's settings to the port and sends its traffic to the endpoints of both. Or give them different hosts.`
              : `Keep one ServiceEntry for ${slot.host}:${slot.port} per namespace that calls it: merge them, or narrow their exportTo so that no namespace sees both.`,
          },
        });
      }
    }
    return out;
  },
});
