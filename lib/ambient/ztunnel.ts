/**
 * A ztunnel's view of the mesh, as meshdx shows it: the workload table `istioctl ztunnel-config
 * workloads` prints (name, namespace, IP, node, waypoint, protocol) and the workloads it still
 * holds that no live pod backs (the ztunnel counterpart of stale EDS in a sidecar).
 *
 * The dump itself (ztunnel admin :15000 `/config_dump`: `workloads`, `services`, `policies`,
 * `certificates`, `workloadState`; not an Envoy dump) is read elsewhere; this module only needs
 * the small shape below, which any reader of the dump must give.
 */
import type { ParseProblem } from '../parse-problem';
import type { Pod } from '../kube/types';
import { podKey, podKeyOfWorkloadUid } from '../refs/pod-ref';

/** One workload of a ztunnel dump, as a reader of the dump gives it. */
export interface ZtunnelWorkloadIn {
  name: string;
  namespace: string;
  /** Addresses without the `network/` prefix. */
  ips: string[];
  node: string;
  /** The waypoint's address or name, null when the workload uses none. */
  waypoint: string | null;
  /** HBONE (captured, talks through ztunnel) or TCP (not captured). */
  protocol: string;
  /** `Kubernetes//Pod/NS/NAME` for pods. */
  uid: string;
  status: string | null;
}

export interface ZtunnelServiceIn {
  name: string;
  namespace: string;
  hostname: string;
  vips: string[];
  endpoints: number;
}

export interface ZtunnelConfig {
  workloads: ZtunnelWorkloadIn[];
  services: ZtunnelServiceIn[];
}

/** What reading a dump gives: the config and what could not be read (kept going past it). */
export interface ZtunnelConfigRead {
  config: ZtunnelConfig;
  errors: ParseProblem[];
}

/** The seam to the dump reader (the parsed JSON of /config_dump in, the config out). */
export type ZtunnelConfigReader = (root: unknown) => ZtunnelConfigRead;

export interface ZtunnelWorkloadRow {
  name: string;
  namespace: string;
  ip: string;
  node: string;
  waypoint: string | null;
  protocol: string;
  status: string | null;
  /** Why the row is stale, null when a live pod backs it. */
  stale: null | { reason: 'pod-gone' | 'ip-reused'; holder: string | null };
}

function podIps(p: Pod): string[] {
  const ips = (p.status?.podIPs ?? []).map((x) => x.ip);
  if (p.status?.podIP && !ips.includes(p.status.podIP)) ips.push(p.status.podIP);
  return ips;
}

/**
 * The workload table with stale rows marked: a pod workload is stale when its pod is not live
 * (`pod-gone`) or its IP is now held by another live pod (`ip-reused`: traffic for the old pod
 * would reach the new one). Non-pod workloads (WorkloadEntries) are never judged.
 */
export function ztunnelWorkloadRows(
  config: ZtunnelConfig,
  livePods: readonly Pod[],
): ZtunnelWorkloadRow[] {
  const live = new Set<string>();
  const byIp = new Map<string, string>();
  for (const p of livePods) {
    const key = podKey(p.metadata.namespace ?? '', p.metadata.name);
    live.add(key);
    for (const ip of podIps(p)) byIp.set(ip, key);
  }
  return config.workloads
    .map((w) => {
      const ip = w.ips[0] ?? '';
      const key = podKeyOfWorkloadUid(w.uid);
      let stale: ZtunnelWorkloadRow['stale'] = null;
      if (key !== null) {
        const holder = byIp.get(ip) ?? null;
        if (holder !== null && holder !== key) stale = { reason: 'ip-reused', holder };
        else if (!live.has(key)) stale = { reason: 'pod-gone', holder: null };
      }
      return {
        name: w.name,
        namespace: w.namespace,
        ip,
        node: w.node,
        waypoint: w.waypoint,
        protocol: w.protocol,
        status: w.status,
        stale,
      };
    })
    .sort(
      (a, b) =>
        Number(b.stale !== null) - Number(a.stale !== null) ||
        a.namespace.localeCompare(b.namespace) ||
        a.name.localeCompare(b.name),
    );
}
