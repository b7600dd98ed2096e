import { PROXY_CONTAINER, podProxy } from '../kube/proxy-container';
import type { Container, ContainerStatus, Pod } from '../kube/types';

export { PROXY_CONTAINER };

export type ProxyPlacement = 'none' | 'sidecar' | 'native-sidecar' | 'gateway' | 'waypoint';

/**
 * Whether a Sidecar resource can scope this proxy: a sidecar's, classic or native. istiod
 * applies Sidecar resources to sidecar proxies only; a gateway or a waypoint gets its
 * configuration from its Gateway and routes whatever Sidecar its namespace holds.
 */
export function sidecarScopes(placement: ProxyPlacement): boolean {
  return placement === 'sidecar' || placement === 'native-sidecar';
}

export interface ProxyInfo {
  placement: ProxyPlacement;
  container?: Container;
  status?: ContainerStatus;
}

/** Finds the pod's Istio proxy and where the injector put it (lib/kube/proxy-container.ts). */
export function proxyOf(pod: Pod): ProxyInfo {
  const p = podProxy(pod);
  if (!p) return { placement: 'none' };
  return { placement: p.placement, container: p.container, status: p.status };
}
