/**
 * The pod's Istio proxy: the one definition every view uses (Overview, Timelines, Proxies,
 * Scoping, Incidents, Findings).
 *
 * Where Istio puts it (istio/istio pkg/kube/inject):
 * - classic sidecar: a container named `istio-proxy` in `spec.containers`, started beside the
 *   app (the injector moves it first when holdApplicationUntilProxyStarts is set);
 * - native sidecar: `istio-proxy` in `spec.initContainers` with `restartPolicy: Always` (the
 *   kubelet starts it before the app containers and stops it after them; Kubernetes 1.28+,
 *   default since Istio 1.27 where the nodes allow it). An init container of that name without
 *   `restartPolicy: Always` would block the pod forever: it is not taken as a proxy;
 * - gateway: the proxy is the workload (`pilot-agent proxy router`, or an `istio-proxy` with no
 *   other container in the pod), it ignores Sidecars;
 * - waypoint (ambient): an Envoy Deployment running `pilot-agent proxy waypoint`.
 * Not a proxy of its pod: ztunnel (ambient's node proxy, DaemonSet `app=ztunnel`) also names its
 * container `istio-proxy` but runs `proxy ztunnel` from the ztunnel image; it is not Envoy (no
 * Envoy admin, no clusters) and serves the pods of its node, so podProxy() says null for it.
 * A malformed pod (no spec, containers not a list) simply has no proxy: never a crash.
 */
import type { Container, ContainerStatus, Pod } from '../kube/types';

export const PROXY_CONTAINER = 'istio-proxy';

export type ProxyPlacement = 'sidecar' | 'native-sidecar' | 'gateway' | 'waypoint';

export interface PodProxy {
  container: Container;
  placement: ProxyPlacement;
  where: 'containers' | 'initContainers';
  /** Index in its list (the kubelet starts `containers` in order). */
  index: number;
  status?: ContainerStatus;
}

/** A value that should be a list, as one (anything else: empty). */
export function listOf<T>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

/** The words of a container's command and args. */
function words(c: Container): string[] {
  return [...listOf<string>(c.command), ...listOf<string>(c.args)];
}

/** `pilot-agent proxy router` (a gateway) or `proxy waypoint` (an ambient waypoint). */
export function proxyRole(c: Container): 'router' | 'waypoint' | 'sidecar' | 'ztunnel' {
  const w = words(c);
  if (w.includes('ztunnel') || /\/ztunnel[:@]/.test(c.image ?? '')) return 'ztunnel';
  if (w.includes('waypoint')) return 'waypoint';
  if (w.includes('router')) return 'router';
  return 'sidecar';
}

/** The pod's Istio proxy and where it runs, or null when the pod has none. */
export function podProxy(pod: Pod): PodProxy | null {
  const spec = (pod as { spec?: unknown }).spec as Pod['spec'] | undefined;
  if (!spec || typeof spec !== 'object') return null;
  const status = (pod as { status?: Pod['status'] }).status;
  const init = listOf<Container>(spec.initContainers);
  const i = init.findIndex((c) => c?.name === PROXY_CONTAINER);
  if (i >= 0 && init[i]?.restartPolicy === 'Always') {
    return {
      container: init[i] as Container,
      placement: 'native-sidecar',
      where: 'initContainers',
      index: i,
      status: listOf<ContainerStatus>(status?.initContainerStatuses).find(
        (s) => s?.name === PROXY_CONTAINER,
      ),
    };
  }
  const main = listOf<Container>(spec.containers);
  const m = main.findIndex((c) => c?.name === PROXY_CONTAINER);
  if (m < 0) return null;
  const container = main[m] as Container;
  const role = proxyRole(container);
  if (role === 'ztunnel') return null;
  // a proxy with no app beside it is a gateway even when its args are not given (Istio's
  // analyzer test pods give none): a sidecar always has an app container beside it
  const alone = main.length === 1;
  return {
    container,
    placement:
      role === 'router' || (role === 'sidecar' && alone)
        ? 'gateway'
        : role === 'waypoint'
          ? 'waypoint'
          : 'sidecar',
    where: 'containers',
    index: m,
    status: listOf<ContainerStatus>(status?.containerStatuses).find(
      (s) => s?.name === PROXY_CONTAINER,
    ),
  };
}

/**
 * Whether a Sidecar resource can scope this proxy: a sidecar's, classic or native. istiod
 * applies Sidecar resources to sidecar proxies only; a gateway or a waypoint is the pod's own
 * workload and ignores them.
 */
export function sidecarScopes(placement: ProxyPlacement | 'none'): boolean {
  return placement === 'sidecar' || placement === 'native-sidecar';
}

/** The pod's istio-proxy container (classic or native sidecar, gateway, waypoint); a ztunnel pod has none. */
export function proxyContainer(pod: Pod): Container | undefined {
  return podProxy(pod)?.container;
}

/** Whether a pod carries an Istio proxy (sidecar, native sidecar, gateway or waypoint; never ztunnel). */
export function hasProxy(pod: Pod): boolean {
  return proxyContainer(pod) !== undefined;
}

/** When the pod's current proxy run started (epoch ms), from its container status. */
export function proxyStartedAt(pod: Pod): number | null {
  const started = podProxy(pod)?.status?.state?.running?.startedAt;
  const ms = started ? Date.parse(started) : NaN;
  return Number.isNaN(ms) ? null : ms;
}
