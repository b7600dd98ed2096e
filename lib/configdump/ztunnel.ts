import { isObject, type JsonObject } from './fields';
import type { DumpProblem } from './types';

/**
 * ztunnel's `/config_dump` (ambient mode; admin port 15000 of a ztunnel pod): not an Envoy
 * dump but `{workloads, services, policies, certificates, workloadState}`.
 *
 * FIELD NOTES (istioctl pkg/util/configdump and writer/ztunnel, the fixture from istio/istio):
 * - `workloads` and `services` are maps keyed `NETWORK/IP` in older ztunnels and lists in
 *   newer ones: accept both. Keys are camelCase.
 * - A workload: name, namespace, workloadIps (plain IPs), node, protocol (HBONE or TCP),
 *   uid (`CLUSTER//Pod/NS/NAME` for pods), waypoint `{destination: "NETWORK/VIP"}` when it uses
 *   one, status, serviceAccount, canonicalName...
 * - A service: name, namespace, hostname, vips (`NETWORK/VIP`), ports, endpoints (a map keyed
 *   `UID:NETWORK/IP`, each with workloadUid, address, port), waypoint.
 * - istioctl prints a workload's waypoint as the name of the service whose VIP the waypoint
 *   destination is, "None" without one (and "NA" when no service has that VIP).
 */
export interface ZtunnelWorkload {
  name: string;
  namespace: string;
  /** The first workload IP (what istioctl shows), or "" without one. */
  ip: string;
  ips: string[];
  node: string;
  /** The waypoint's service name; null when the workload uses none. */
  waypoint: string | null;
  protocol: string;
  uid: string;
  status: string | null;
}

export interface ZtunnelService {
  name: string;
  namespace: string;
  hostname: string;
  /** The first VIP without its network prefix, or "" without one. */
  vip: string;
  vips: string[];
  /** Number of endpoints. */
  endpoints: number;
  /** Endpoint addresses (IPs without network). */
  endpointIps: string[];
  waypoint: string | null;
}

export interface ZtunnelDump {
  workloads: ZtunnelWorkload[];
  services: ZtunnelService[];
  policies: number;
  certificates: number;
  /** Certificates by state (Available, Initializing, Unavailable...), where the input says. */
  certificateStates?: Record<string, number>;
}

export interface ZtunnelParse {
  dump: ZtunnelDump;
  /** Entries that could not be read, with their path (`workloads.net1/10.0.0.1`). */
  errors: DumpProblem[];
}

const ZTUNNEL_KEYS = ['workloads', 'services', 'policies', 'certificates', 'workloadState'];

/** Whether a parsed document is a ztunnel config dump (and not an Envoy one). */
export function isZtunnelDump(value: unknown): value is JsonObject {
  if (!isObject(value) || 'configs' in value) return false;
  const found = ZTUNNEL_KEYS.filter((k) => k in value);
  return found.length >= 2 && ('workloads' in value || 'services' in value);
}

/** `network1/10.0.0.1` or `/10.0.0.1` -> `10.0.0.1`; a plain address stays as it is. */
export function withoutNetwork(address: string): string {
  const slash = address.indexOf('/');
  return slash >= 0 ? address.slice(slash + 1) : address;
}

function str(obj: JsonObject, key: string): string | null {
  const v = obj[key];
  return typeof v === 'string' ? v : null;
}

function entries(value: unknown, base: string): { entry: unknown; path: string }[] | null {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map((entry, i) => ({ entry, path: `${base}[${i}]` }));
  if (isObject(value))
    return Object.entries(value).map(([k, entry]) => ({
      entry,
      path: `${base}.${k}`,
    }));
  return null;
}

function count(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (isObject(value)) return Object.keys(value).length;
  return 0;
}

function bad(path: string, why: string): DumpProblem {
  return { line: 0, reason: 'bad-entry', message: `${path} ${why}`, path };
}

/** Reads a ztunnel dump (see isZtunnelDump); unreadable entries are errors, the rest is kept. */
export function readZtunnelDump(root: JsonObject): ZtunnelParse {
  const errors: DumpProblem[] = [];
  const services: ZtunnelService[] = [];
  /** Service name by VIP as written (`net/ip`) and by bare IP: for waypoint names. */
  const byVip = new Map<string, string>();
  /** Service name by namespace, then hostname: a waypoint destination `NS/HOSTNAME`. */
  const byHost = new Map<string, Map<string, string>>();

  const svcEntries = entries(root.services, 'services');
  if (svcEntries === null) errors.push(bad('services', 'is neither a list nor a map'));
  for (const { entry, path } of svcEntries ?? []) {
    if (!isObject(entry)) {
      errors.push(bad(path, 'is not an object'));
      continue;
    }
    const name = str(entry, 'name');
    if (name === null) {
      errors.push(bad(path, 'has no name'));
      continue;
    }
    const vips = Array.isArray(entry.vips)
      ? entry.vips.filter((v): v is string => typeof v === 'string')
      : [];
    for (const v of vips) {
      byVip.set(v, name);
      byVip.set(withoutNetwork(v), name);
    }
    const ns = str(entry, 'namespace') ?? '';
    const host = str(entry, 'hostname');
    if (host !== null)
      byHost.set(ns, (byHost.get(ns) ?? new Map<string, string>()).set(host, name));
    const eps = entries(entry.endpoints, `${path}.endpoints`) ?? [];
    const endpointIps: string[] = [];
    for (const { entry: ep } of eps) {
      const addr = isObject(ep) ? str(ep, 'address') : null;
      if (addr) endpointIps.push(withoutNetwork(addr));
    }
    const wp = isObject(entry.waypoint) ? str(entry.waypoint, 'destination') : null;
    services.push({
      name,
      namespace: str(entry, 'namespace') ?? '',
      hostname: str(entry, 'hostname') ?? '',
      vip: vips[0] ? withoutNetwork(vips[0]) : '',
      vips: vips.map(withoutNetwork),
      endpoints: eps.length,
      endpointIps,
      waypoint: wp,
    });
  }
  for (const s of services) if (s.waypoint) s.waypoint = waypointName(s.waypoint, byVip, byHost);

  const workloads: ZtunnelWorkload[] = [];
  const wlEntries = entries(root.workloads, 'workloads');
  if (wlEntries === null) errors.push(bad('workloads', 'is neither a list nor a map'));
  for (const { entry, path } of wlEntries ?? []) {
    if (!isObject(entry)) {
      errors.push(bad(path, 'is not an object'));
      continue;
    }
    const name = str(entry, 'name');
    if (name === null) {
      errors.push(bad(path, 'has no name'));
      continue;
    }
    const raw = entry.workloadIps ?? entry.workloadIp;
    const ips = (Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []).filter(
      (v): v is string => typeof v === 'string',
    );
    const wp = isObject(entry.waypoint) ? str(entry.waypoint, 'destination') : null;
    workloads.push({
      name,
      namespace: str(entry, 'namespace') ?? '',
      ip: ips[0] ? withoutNetwork(ips[0]) : '',
      ips: ips.map(withoutNetwork),
      node: str(entry, 'node') ?? '',
      waypoint: wp === null ? null : waypointName(wp, byVip, byHost),
      protocol: str(entry, 'protocol') ?? 'TCP',
      uid: str(entry, 'uid') ?? '',
      status: str(entry, 'status'),
    });
  }
  // istioctl's order: namespace.name, then node
  workloads.sort(
    (a, b) => cmp(`${a.namespace}.${a.name}`, `${b.namespace}.${b.name}`) || cmp(a.node, b.node),
  );
  services.sort((a, b) => cmp(a.namespace, b.namespace) || cmp(a.name, b.name));
  return {
    dump: {
      workloads,
      services,
      policies: count(root.policies),
      certificates: count(root.certificates),
      certificateStates: certificateStates(root.certificates),
    },
    errors,
  };
}

/**
 * The name istioctl prints for a waypoint destination (writer/ztunnel/configdump workload.go
 * waypointName): the service whose `NAMESPACE/HOSTNAME` it is (what newer ztunnels write), or
 * whose VIP (`NETWORK/VIP`) it is; "NA" when no service is.
 */
function waypointName(
  destination: string,
  byVip: ReadonlyMap<string, string>,
  byHost: ReadonlyMap<string, ReadonlyMap<string, string>>,
): string {
  const slash = destination.indexOf('/');
  const named =
    slash > 0
      ? byHost.get(destination.slice(0, slash))?.get(destination.slice(slash + 1))
      : undefined;
  return named ?? byVip.get(destination) ?? byVip.get(withoutNetwork(destination)) ?? 'NA';
}

/** Certificates of a dump by their `state`, or undefined when none has one. */
function certificateStates(value: unknown): Record<string, number> | undefined {
  const list = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : [];
  const out: Record<string, number> = {};
  for (const c of list) {
    const state = isObject(c) ? str(c, 'state') : null;
    if (state !== null) out[state] = (out[state] ?? 0) + 1;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A pod that exists now, as the dashboard or a `kubectl get pods -o json` knows it. */
export interface LivePod {
  namespace: string;
  name: string;
  ips: readonly string[];
}

export interface StaleWorkload {
  workload: ZtunnelWorkload;
  /** 'ip-free': no pod holds its IP; 'ip-reused': another pod holds it now. */
  reason: 'ip-free' | 'ip-reused';
  /** The pod holding the IP now (ip-reused). */
  holder: { namespace: string; name: string } | null;
}

/**
 * The workloads of a ztunnel dump that no live pod backs any more: pod workloads (uid
 * `CLUSTER//Pod/...`, or no uid) none of whose IPs a live pod of the same namespace and name
 * holds. An IP held by another pod is the phantom-pod case for ambient: ztunnel still sends
 * the old workload's traffic (and identity) to an address that belongs to someone else.
 * Workloads that are not pods (WorkloadEntry, services' VIPs) are never listed.
 */
export function staleWorkloads(
  workloads: readonly ZtunnelWorkload[],
  live: readonly LivePod[],
): StaleWorkload[] {
  const holderOf = new Map<string, LivePod>();
  for (const p of live) for (const ip of p.ips) holderOf.set(ip.toLowerCase(), p);
  const out: StaleWorkload[] = [];
  for (const w of workloads) {
    if (w.uid !== '' && !w.uid.includes('/Pod/')) continue;
    if (w.ips.length === 0) continue;
    const holders = w.ips.map((ip) => holderOf.get(ip.toLowerCase()) ?? null);
    if (holders.some((h) => h !== null && h.namespace === w.namespace && h.name === w.name))
      continue;
    const other = holders.find((h) => h !== null) ?? null;
    out.push({
      workload: w,
      reason: other ? 'ip-reused' : 'ip-free',
      holder: other ? { namespace: other.namespace, name: other.name } : null,
    });
  }
  return out;
}

/** `meshdx clusters --json` for a ztunnel dump. */
export interface ZtunnelJson {
  kind: 'ztunnel';
  workloads: {
    name: string;
    namespace: string;
    ip: string;
    node: string;
    waypoint: string | null;
    protocol: string;
  }[];
  services: { name: string; namespace: string; vip: string; endpoints: number }[];
  /** Entries that could not be read (the exit code is then 1). */
  errors: DumpProblem[];
}

export function ztunnelJson(parse: ZtunnelParse): ZtunnelJson {
  return {
    kind: 'ztunnel',
    workloads: parse.dump.workloads.map((w) => ({
      name: w.name,
      namespace: w.namespace,
      ip: w.ip,
      node: w.node,
      waypoint: w.waypoint,
      protocol: w.protocol,
    })),
    services: parse.dump.services.map((s) => ({
      name: s.name,
      namespace: s.namespace,
      vip: s.vip,
      endpoints: s.endpoints,
    })),
    errors: parse.errors,
  };
}

/** The tables `istioctl ztunnel-config workloads` / `services` print (tab-aligned). */
export function formatZtunnelTables(dump: ZtunnelDump): string {
  const wl = [['NAMESPACE', 'NAME', 'IP', 'NODE', 'WAYPOINT', 'PROTOCOL']];
  for (const w of dump.workloads)
    wl.push([w.namespace, w.name, w.ip, w.node, w.waypoint ?? 'None', w.protocol]);
  const sv = [['NAMESPACE', 'SERVICE NAME', 'SERVICE VIP', 'WAYPOINT', 'ENDPOINTS']];
  for (const s of dump.services)
    sv.push([s.namespace, s.name, s.vip, s.waypoint ?? 'None', String(s.endpoints)]);
  const states = Object.entries(dump.certificateStates ?? {})
    .map(([state, n]) => `${n} ${state}`)
    .join(', ');
  const others =
    dump.policies > 0 || dump.certificates > 0
      ? `\n${dump.policies} policies, ${dump.certificates} certificates${states ? ` (${states})` : ''}\n`
      : '';
  return `${align(wl)}\n${align(sv)}${others}`;
}

function align(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}
