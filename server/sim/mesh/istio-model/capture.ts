/**
 * Which pods the simulated ztunnel captures, and the waypoint a captured pod's traffic goes
 * through: the simulator's own reading of Istio's ambient enrolment (istio/istio
 * cni/pkg/util/podutil.go PodRedirectionEnabled, IsZtunnelPod; the gateway and waypoint
 * templates), kept apart from the product's lib/dataplane so that a test comparing what meshdx
 * says of a pod with what the simulated ztunnel holds can fail.
 *
 * The CNI agent redirects a pod's traffic to ztunnel when, in this order:
 * 1. its namespace or the pod itself carries `istio.io/dataplane-mode: ambient` (nothing else
 *    enrols: an unknown value on the namespace is not ambient);
 * 2. it has no sidecar: the injector's `sidecar.istio.io/status` annotation means a sidecar, and
 *    ztunnel and a sidecar for one pod is not supported;
 * 3. the pod does not say `istio.io/dataplane-mode: none` (the only opt-out value);
 * 4. it is not on the host network (its rules would go into the node's network namespace).
 * Not workloads of their own either: the ztunnel pods (`app: ztunnel` in istio-system), and the
 * gateways and waypoints, whose Envoy is the pod's workload (Istio deploys them labelled
 * `istio.io/dataplane-mode: none`; the simulator knows them by the proxy it runs).
 */
import type { Namespace, Pod } from '../../../../lib/kube/types';
import { objectKey } from '../../../../lib/refs/object-ref';
import { simProxyOf } from './proxy-kind';
import {
  DATAPLANE_MODE_AMBIENT,
  DATAPLANE_MODE_LABEL,
  DATAPLANE_MODE_NONE,
  ISTIO_SYSTEM_NAMESPACE,
  SIDECAR_STATUS_ANNOTATION,
  USE_WAYPOINT_LABEL,
  USE_WAYPOINT_NAMESPACE_LABEL,
  USE_WAYPOINT_NONE,
  ZTUNNEL_APP,
} from './wire';

type Labelled = { metadata?: { labels?: Record<string, string> } } | undefined;
const labelsOf = (o: Labelled): Readonly<Record<string, string>> => o?.metadata?.labels ?? {};

/** IsZtunnelPod. */
export function isZtunnelPod(pod: Pod, systemNamespace = ISTIO_SYSTEM_NAMESPACE): boolean {
  return pod.metadata?.namespace === systemNamespace && labelsOf(pod)['app'] === ZTUNNEL_APP;
}

/** The pod runs its own Envoy as its workload: a gateway (`proxy router`) or a waypoint. */
function ownEnvoy(pod: Pod): boolean {
  const type = simProxyOf(pod)?.type;
  return type === 'router' || type === 'waypoint';
}

/** PodRedirectionEnabled, for the pods that are workloads at all. */
export function ztunnelCaptures(pod: Pod, namespace: Namespace | undefined): boolean {
  if (isZtunnelPod(pod) || ownEnvoy(pod)) return false;
  const own = labelsOf(pod)[DATAPLANE_MODE_LABEL];
  const enrolled =
    labelsOf(namespace)[DATAPLANE_MODE_LABEL] === DATAPLANE_MODE_AMBIENT ||
    own === DATAPLANE_MODE_AMBIENT;
  if (!enrolled) return false;
  if (pod.metadata?.annotations?.[SIDECAR_STATUS_ANNOTATION] !== undefined) return false;
  if (own === DATAPLANE_MODE_NONE) return false;
  return pod.spec?.hostNetwork !== true;
}

/**
 * The waypoint (`namespace/name`) an object's traffic is sent to: its own `istio.io/use-waypoint`
 * label, else its namespace's; `none` opts out; `istio.io/use-waypoint-namespace` beside the
 * label that names the waypoint says where it lives, else the object's namespace.
 */
export function waypointFor(object: Labelled, namespace: Labelled, ns: string): string | null {
  const own = labelsOf(object);
  const from = own[USE_WAYPOINT_LABEL] !== undefined ? own : labelsOf(namespace);
  const name = from[USE_WAYPOINT_LABEL];
  if (name === undefined || name === USE_WAYPOINT_NONE) return null;
  return objectKey(from[USE_WAYPOINT_NAMESPACE_LABEL] ?? ns, name);
}
