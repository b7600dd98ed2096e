/**
 * Envoy's `/clusters` admin answer in its default text form (what every `istioctl bug-report`
 * keeps as `proxies/<ns>/<pod>/clusters`; Envoy source/server/admin/clusters_handler.cc): one
 * fact a line, `CLUSTER::FIELD::VALUE` for the cluster (`observability_name`,
 * `default_priority::max_connections::N`, `added_via_api`, `eds_service_name`,
 * `outlier::...`) and `CLUSTER::HOST::FIELD::VALUE` for each host, HOST being the address as
 * Envoy writes it (`10.0.0.1:80`, `[fd00::1]:80`, a pipe's path, `envoy://LISTENER/ID`).
 * `health_flags` is `healthy` or flags each led by `/` (`/failed_active_hc`,
 * `/failed_outlier_check`, `/failed_eds_health`, `/degraded_eds_health`,
 * `/pending_dynamic_removal`, `/eds_status_draining`...).
 *
 * Read into the ClusterStatus shape of `/clusters?format=json`, so that one reader makes the
 * endpoint table of both. The text has no EDS health of its own: it is told by the flags
 * (`failed_eds_health` UNHEALTHY, `degraded_eds_health` DEGRADED, `eds_status_draining`
 * DRAINING, else HEALTHY), which is what Envoy derives them from.
 */
import { addressOfText, type EnvoyAddress } from './address';
import type { DumpProblem } from './types';

/** What Envoy writes after `CLUSTER::` for facts about the cluster itself. */
const CLUSTER_FIELDS = [
  'observability_name',
  'default_priority',
  'high_priority',
  'added_via_api',
  'eds_service_name',
  'outlier',
];

/** Whether a text looks like `/clusters` text: its first lines are `NAME::FIELD::VALUE`. */
export function isClustersText(text: string): boolean {
  const lines = text
    .slice(0, 16 * 1024)
    .split('\n', 20)
    .filter((l) => l.trim() !== '');
  const facts = lines.filter(
    (l) => /^[^\s:][^\s]*::[a-z_]+::/.test(l) || /^[^\s:][^\s]*::\S+::[a-z_]+::/.test(l),
  );
  return lines.length > 0 && facts.length >= Math.ceil(lines.length / 2);
}

function addressJson(a: EnvoyAddress): Record<string, unknown> {
  if (a.kind === 'socket') return { socket_address: { address: a.ip, port_value: a.port ?? 0 } };
  if (a.kind === 'pipe') return { pipe: { path: a.path } };
  return {
    envoy_internal_address: { server_listener_name: a.listener, endpoint_id: a.endpointId },
  };
}

function edsOf(flags: string): string {
  if (flags.includes('/failed_eds_health')) return 'UNHEALTHY';
  if (flags.includes('/degraded_eds_health')) return 'DEGRADED';
  if (flags.includes('/eds_status_draining')) return 'DRAINING';
  return 'HEALTHY';
}

/**
 * The ClusterStatus entries of a `/clusters` text (cluster order kept, hosts in the order
 * first seen), and the lines that are no fact (with their numbers).
 */
export function readClustersText(text: string): { statuses: unknown[]; errors: DumpProblem[] } {
  const clusters = new Map<
    string,
    Map<string, { address: EnvoyAddress | null; flags: string | null }>
  >();
  const errors: DumpProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line === '') return;
    const sep = line.indexOf('::');
    if (sep <= 0) {
      errors.push({
        line: i + 1,
        reason: 'bad-entry',
        message: 'not a CLUSTER::FIELD::VALUE line',
      });
      return;
    }
    const name = line.slice(0, sep);
    const rest = line.slice(sep + 2);
    let hosts = clusters.get(name);
    if (!hosts) {
      hosts = new Map();
      clusters.set(name, hosts);
    }
    if (CLUSTER_FIELDS.some((f) => rest.startsWith(`${f}::`))) return;
    // HOST::FIELD::VALUE, taken from the end: an IPv6 host holds `::` itself
    const last = rest.lastIndexOf('::');
    const before = last > 0 ? rest.lastIndexOf('::', last - 1) : -1;
    if (before <= 0) {
      errors.push({
        line: i + 1,
        reason: 'bad-entry',
        message: `${name}: not a HOST::FIELD::VALUE fact`,
      });
      return;
    }
    const host = rest.slice(0, before);
    const field = rest.slice(before + 2, last);
    const value = rest.slice(last + 2);
    const h = hosts.get(host) ?? { address: addressOfText(host), flags: null };
    if (field === 'health_flags') h.flags = value;
    hosts.set(host, h);
  });
  const statuses = [...clusters].map(([name, hosts]) => ({
    name,
    host_statuses: [...hosts.values()].map((h) => ({
      ...(h.address ? { address: addressJson(h.address) } : {}),
      // a host whose health_flags line is missing (a cut file) has no health: UNKNOWN
      health_status:
        h.flags === null
          ? {}
          : {
              eds_health_status: edsOf(h.flags),
              failed_outlier_check: h.flags.includes('/failed_outlier_check'),
            },
    })),
  }));
  return { statuses, errors };
}
