/**
 * Facts about a pod's Istio proxy that decide its cluster set: present or not, gateway (runs
 * `pilot-agent proxy router`, ignores Sidecars) or sidecar, and its Istio version (cluster naming
 * changed in 1.10 and 1.21). Used by the Scoping analysis.
 */
import { PROXY_CONTAINER, podProxy } from '../dataplane/proxy-container';
import type { Pod } from '../kube/types';

export { PROXY_CONTAINER };
export const DEFAULT_ISTIO_VERSION = '1.24.2';

/** Gateways run `pilot-agent proxy router`; they ignore Sidecar resources. */
export function isGatewayPod(pod: Pod): boolean {
  return podProxy(pod)?.placement === 'gateway';
}

/** Istio version from the proxy image tag (`.../proxyv2:1.22.3`), else the default. */
export function proxyVersionOf(pod: Pod, fallback = DEFAULT_ISTIO_VERSION): string {
  const image = podProxy(pod)?.container.image ?? '';
  const m = /:(\d+\.\d+(?:\.\d+)?)(?:[-@].*)?$/.exec(image);
  return m?.[1] ?? fallback;
}

/** Compare dotted versions numerically: negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
