import { PROXY_CONTAINER, podProxy } from '../dataplane/proxy-container';
import type { Container, ContainerStatus, Pod } from '../kube/types';

export { PROXY_CONTAINER };

export type ProxyPlacementOrNone = 'none' | 'sidecar' | 'native-sidecar' | 'gateway' | 'waypoint';

export interface ProxyInfo {
  placement: ProxyPlacementOrNone;
  container?: Container;
  status?: ContainerStatus;
}

/** Finds the pod's Istio proxy and where the injector put it (lib/dataplane/proxy-container.ts). */
export function proxyOf(pod: Pod): ProxyInfo {
  const p = podProxy(pod);
  if (!p) return { placement: 'none' };
  return { placement: p.placement, container: p.container, status: p.status };
}
