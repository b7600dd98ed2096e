/**
 * A pod's and a namespace's data-plane mode (sidecar, ambient, none) and the waypoint it uses:
 * the one definition Overview, Proxies and the migration readiness share.
 *
 * Field notes (istio/istio cni/pkg/util PodRedirectionEnabled, pilot ambient index):
 * - Ambient enrolment is the label `istio.io/dataplane-mode=ambient`, on the namespace or on the
 *   pod. A pod label is explicit and wins: `ambient` enrols a pod in a namespace that is not
 *   ambient, any other value (the documented one is `none`) opts a pod out of an ambient
 *   namespace.
 * - A pod with a sidecar (`sidecar.istio.io/status`, i.e. injected) is never captured by ztunnel:
 *   sidecar and ztunnel for one pod is not supported, the sidecar wins.
 * - hostNetwork pods cannot be captured (their network namespace is the node's).
 * - The CNI agent marks a pod it has captured with `ambient.istio.io/redirection: enabled`
 *   (`pending` while half done): the observed side of the label's promise.
 * - Waypoints: `istio.io/use-waypoint: NAME` on the namespace, a Service or a pod (the more
 *   specific wins; `none` on a pod or Service opts out of the namespace's waypoint),
 *   `istio.io/use-waypoint-namespace` when the waypoint lives elsewhere. A waypoint is a Gateway
 *   (gateway.networking.k8s.io) of class `istio-waypoint`, deployed as Envoy pods running
 *   `pilot-agent proxy waypoint`, labelled `gateway.networking.k8s.io/gateway-name`.
 */
import { podProxy } from './proxy-container';
import type { Namespace, Pod } from '../kube/types';
import { objectKey, type ObjectRef } from '../refs/object-ref';

export const DATAPLANE_MODE_LABEL = 'istio.io/dataplane-mode';
export const USE_WAYPOINT_LABEL = 'istio.io/use-waypoint';
export const USE_WAYPOINT_NS_LABEL = 'istio.io/use-waypoint-namespace';
export const AMBIENT_REDIRECTION_ANNOTATION = 'ambient.istio.io/redirection';
export const SIDECAR_STATUS_ANNOTATION = 'sidecar.istio.io/status';
export const WAYPOINT_CLASS = 'istio-waypoint';
export const GATEWAY_NAME_LABEL = 'gateway.networking.k8s.io/gateway-name';

export type DataplaneMode = 'sidecar' | 'ambient' | 'none';
export type NamespaceDataplane = 'ambient' | 'none';

export interface PodDataplane {
  mode: DataplaneMode;
  why: string;
  /** What the CNI agent says it did (`enabled`, `pending`), null when it did not mark the pod. */
  redirection: string | null;
  /** `namespace/name` of the waypoint the pod's own label or its namespace's names, or null. */
  waypoint: string | null;
}

function labels(o: { metadata?: { labels?: Record<string, string> } } | undefined) {
  return o?.metadata?.labels ?? {};
}

export function namespaceDataplane(ns: Namespace | undefined): NamespaceDataplane {
  return labels(ns)[DATAPLANE_MODE_LABEL] === 'ambient' ? 'ambient' : 'none';
}

/** The waypoint a labelled object asks for, the more specific label first; `none` opts out. */
export function waypointOf(
  own: Readonly<Record<string, string>>,
  ns: Readonly<Record<string, string>>,
  namespace: string,
): string | null {
  const name = own[USE_WAYPOINT_LABEL] ?? ns[USE_WAYPOINT_LABEL];
  if (!name || name === 'none') return null;
  const from = own[USE_WAYPOINT_LABEL] !== undefined ? own : ns;
  return objectKey(from[USE_WAYPOINT_NS_LABEL] ?? namespace, name);
}

export function podDataplane(pod: Pod, ns: Namespace | undefined): PodDataplane {
  const own = labels(pod);
  const nsLabels = labels(ns);
  const namespace = pod.metadata?.namespace ?? '';
  const redirection = pod.metadata?.annotations?.[AMBIENT_REDIRECTION_ANNOTATION] ?? null;
  const waypoint = waypointOf(own, nsLabels, namespace);
  const proxy = podProxy(pod);
  if (proxy) {
    const why =
      proxy.placement === 'waypoint' || proxy.placement === 'gateway'
        ? `its own Envoy (${proxy.placement})`
        : `istio-proxy ${proxy.placement === 'native-sidecar' ? 'native sidecar' : 'sidecar'}`;
    return { mode: 'sidecar', why, redirection, waypoint: null };
  }
  if (pod.metadata?.annotations?.[SIDECAR_STATUS_ANNOTATION] !== undefined) {
    return {
      mode: 'none',
      why: 'injected but its proxy container is missing',
      redirection,
      waypoint: null,
    };
  }
  if (pod.spec?.hostNetwork) {
    return {
      mode: 'none',
      why: 'hostNetwork: ztunnel cannot capture it',
      redirection,
      waypoint: null,
    };
  }
  const podMode = own[DATAPLANE_MODE_LABEL];
  if (podMode !== undefined) {
    return podMode === 'ambient'
      ? { mode: 'ambient', why: `pod label ${DATAPLANE_MODE_LABEL}=ambient`, redirection, waypoint }
      : {
          mode: 'none',
          why: `pod label ${DATAPLANE_MODE_LABEL}=${podMode} opts out`,
          redirection,
          waypoint: null,
        };
  }
  if (namespaceDataplane(ns) === 'ambient') {
    return {
      mode: 'ambient',
      why: `namespace label ${DATAPLANE_MODE_LABEL}=ambient`,
      redirection,
      waypoint,
    };
  }
  return {
    mode: 'none',
    why: 'no sidecar and not enrolled in ambient',
    redirection,
    waypoint: null,
  };
}

/** The ztunnel DaemonSet's pods: `app=ztunnel` in the Istio system namespace. */
export function isZtunnelPod(pod: Pod, systemNamespace = 'istio-system'): boolean {
  return pod.metadata?.namespace === systemNamespace && labels(pod)['app'] === 'ztunnel';
}

/** A waypoint's pods: their proxy runs `proxy waypoint` (lib/dataplane/proxy-container.ts). */
export function isWaypointPod(pod: Pod): boolean {
  return podProxy(pod)?.placement === 'waypoint';
}

/** The waypoint Gateway a waypoint pod serves. */
export function waypointRefOf(pod: Pod): ObjectRef {
  const gw = labels(pod)[GATEWAY_NAME_LABEL];
  return { namespace: pod.metadata?.namespace ?? '', name: gw ?? pod.metadata?.name ?? '' };
}

/** `namespace/name` of the waypoint Gateway a waypoint pod serves. */
export function waypointNameOf(pod: Pod): string {
  const ref = waypointRefOf(pod);
  return objectKey(ref.namespace, ref.name);
}
