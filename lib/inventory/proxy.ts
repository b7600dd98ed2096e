import type { Container, ContainerStatus, Pod } from '../kube/types';

export const PROXY_CONTAINER = 'istio-proxy';

export type ProxyPlacement = 'none' | 'sidecar' | 'native-sidecar' | 'gateway';

export interface ProxyInfo {
  placement: ProxyPlacement;
  container?: Container;
  status?: ContainerStatus;
}

/** Finds the pod's Istio proxy and where the injector put it. */
export function proxyOf(pod: Pod): ProxyInfo {
  const init = pod.spec.initContainers?.find((c) => c.name === PROXY_CONTAINER);
  if (init && init.restartPolicy === 'Always') {
    return {
      placement: 'native-sidecar',
      container: init,
      status: pod.status?.initContainerStatuses?.find((s) => s.name === PROXY_CONTAINER),
    };
  }
  const main = pod.spec.containers.find((c) => c.name === PROXY_CONTAINER);
  if (!main) return { placement: 'none' };
  const status = pod.status?.containerStatuses?.find((s) => s.name === PROXY_CONTAINER);
  const isGateway = (main.args ?? []).includes('router');
  return { placement: isGateway ? 'gateway' : 'sidecar', container: main, status };
}
