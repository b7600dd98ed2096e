/**
 * Inputs of the Scoping analysis, shaped so the server can fill them from what it fetches: the
 * cluster's objects, per-proxy cluster counts (null when the proxy could not be reached) and
 * per-workload (or per-pod) observed destinations with the source that saw them.
 */
import type { Pod } from '../kube/types';
import type { IstioConfig } from '../kube/istio-config';

/** Where an observed call came from, best first. */
export type ObservationSource = 'envoy-stats' | 'access-log' | 'prometheus';
export const SOURCE_ORDER: readonly ObservationSource[] = [
  'envoy-stats',
  'access-log',
  'prometheus',
];

/**
 * One destination seen by a source: an Envoy cluster name (per-cluster stats with
 * `upstream_rq_total`/`upstream_cx_total` > 0, or an access log's upstream cluster), or a host
 * (Prometheus `istio_requests_total{destination_service}`), with how often it was seen.
 */
export interface TrafficHit {
  cluster?: string;
  host?: string;
  port?: number;
  count: number;
}

/**
 * What one source saw for one pod (Envoy stats, access logs) or one workload (Prometheus
 * `source_workload`). `available: false` means the source was tried and could not be read.
 */
export interface TrafficObservation {
  source: ObservationSource;
  namespace: string;
  pod?: string;
  workload?: string;
  available: boolean;
  error?: string;
  hits: TrafficHit[];
}

/**
 * A proxy's cluster counts: `cluster_manager.active_clusters`, and how many of them are service
 * clusters (`DIRECTION|PORT|SUBSET|FQDN` names); the rest are static/control-plane ones (xds-grpc,
 * BlackHoleCluster, PassthroughCluster, ...). null: the proxy was unreachable.
 */
export interface ProxyClusterCount {
  namespace: string;
  pod: string;
  active: number | null;
  service: number | null;
  /** Inbound service clusters, when the caller counted them (else modelled from the pod's services). */
  inbound?: number | null;
}

export interface ObservationWindow {
  start: string;
  end: string;
}

/**
 * The mesh's objects a scoping plan reads. VirtualServices: a Sidecar egress listener that
 * imports one also gets the services it routes to (istiod's collectImportedServices); absent:
 * none. Namespaces: absent, the ones the pods and services name.
 */
export interface ScopingInput
  extends
    Pick<IstioConfig, 'services' | 'serviceEntries' | 'sidecars' | 'destinationRules'>,
    Partial<Pick<IstioConfig, 'virtualServices' | 'namespaces'>> {
  generatedAt: string;
  pods: readonly Pod[];
  proxyCounts: readonly ProxyClusterCount[];
  observations: readonly TrafficObservation[];
  window: ObservationWindow | null;
  /** Mesh config rootNamespace (default istio-system). */
  rootNamespace?: string;
  /** Where the control plane lives: `<istioNamespace>/*` goes into every generated Sidecar. */
  istioNamespace?: string;
  /** Shorter windows are flagged as too short to trust (default 3600 s). */
  minWindowSeconds?: number;
  /** Cap on unused services listed per workload (the total is always given). Default 50. */
  maxUnusedListed?: number;
}
