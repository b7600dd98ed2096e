/**
 * Envoy's `admin.v3.ClusterStatus` entries: the body of `/clusters?format=json`
 * (`cluster_statuses`) and what `istioctl proxy-config endpoint -o json|yaml` prints (a list of
 * them, camelCase, only those with a host the filter kept: istioctl/pkg/writer/envoy/clusters).
 * Each host is read with its address whatever its kind (socket, pipe, internal listener), its
 * EDS health and whether outlier detection ejected it: none is dropped, and a host with no
 * address is counted apart, one per host.
 */
import { arrayField, field } from './fields';
import { envoyAddress, type EnvoyAddress } from './address';

export interface StatusHost {
  /** The cluster's name; '' when its entry has none. */
  cluster: string;
  /** Null when the host has no address Envoy writes (neither socket, pipe nor internal). */
  address: EnvoyAddress | null;
  /** health_status.eds_health_status as Envoy wrote it (HEALTHY, UNHEALTHY, DRAINING...). */
  eds: string | null;
  failedOutlierCheck: boolean;
}

export interface StatusHosts {
  hosts: StatusHost[];
  /** Entries read (each a cluster). */
  clusters: number;
  /** Entries without a name (their hosts are kept, with cluster ''). */
  unnamed: number;
}

/** The hosts of a list of ClusterStatus entries (snake_case or camelCase). */
export function readClusterStatuses(statuses: readonly unknown[]): StatusHosts {
  const out: StatusHosts = { hosts: [], clusters: statuses.length, unnamed: 0 };
  for (const c of statuses) {
    const name = field(c, 'name');
    const cluster = typeof name === 'string' ? name : '';
    if (cluster === '') out.unnamed++;
    for (const h of arrayField(c, 'host_statuses') ?? []) {
      const hs = field(h, 'health_status');
      const eds = field(hs, 'eds_health_status');
      out.hosts.push({
        cluster,
        address: envoyAddress(field(h, 'address')),
        eds: typeof eds === 'string' ? eds : null,
        failedOutlierCheck: field(hs, 'failed_outlier_check') === true,
      });
    }
  }
  return out;
}

/** Whether a parsed value is a list printed by `istioctl proxy-config endpoint -o json|yaml`. */
export function isClusterStatusList(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (v) => typeof field(v, 'name') === 'string' && Array.isArray(field(v, 'host_statuses')),
    )
  );
}
