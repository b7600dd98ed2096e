import { proxyOf } from '../inventory/proxy';
import { sidecarScopes } from '../dataplane/proxy-container';
import { workloadOf } from '../refs/workload-ref';
import type { Pod, Sidecar } from '../kube/types';
import { DEFAULT_ROOT_NAMESPACE, selectSidecar } from '../scoping/visibility';
import type { ProxyTarget } from './types';

/** `docker.io/istio/proxyv2:1.24.0-distroless@sha256:...` -> `1.24.0-distroless`. */
export function imageTag(image: string | undefined): string | null {
  if (!image) return null;
  const noDigest = image.split('@')[0] ?? '';
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  return colon > slash ? noDigest.slice(colon + 1) || null : null;
}

function notRunningReason(pod: Pod, running: boolean): string | null {
  if (pod.metadata.deletionTimestamp) return 'pod is terminating';
  const phase = pod.status?.phase ?? 'Unknown';
  if (phase === 'Succeeded' || phase === 'Failed') return `pod phase is ${phase}`;
  if (!pod.status?.podIP) return `pod has no IP yet (phase ${phase})`;
  if (!running) return 'istio-proxy container is not running';
  return null;
}

/**
 * The proxies of a pod list (sidecars, native sidecars, gateways and waypoints), each sidecar
 * with the Sidecar resource that selects it (gateways and waypoints: none applies). Pods without
 * a proxy are left out; the count of them is returned.
 */
export function proxyTargets(
  pods: readonly Pod[],
  sidecars: readonly Sidecar[],
  rootNamespace = DEFAULT_ROOT_NAMESPACE,
): { targets: ProxyTarget[]; withoutProxy: number } {
  const targets: ProxyTarget[] = [];
  let withoutProxy = 0;
  for (const pod of pods) {
    const proxy = proxyOf(pod);
    if (proxy.placement === 'none') {
      withoutProxy++;
      continue;
    }
    const w = workloadOf(pod);
    const sel = sidecarScopes(proxy.placement)
      ? selectSidecar(pod, sidecars, rootNamespace)
      : { sidecar: null, source: 'none' as const };
    const sc = sel.sidecar;
    targets.push({
      namespace: pod.metadata.namespace ?? 'default',
      name: pod.metadata.name,
      workload: w.name,
      workloadKind: w.kind,
      placement: proxy.placement,
      podIP: pod.status?.podIP ?? null,
      imageVersion: imageTag(proxy.container?.image),
      notRunning: notRunningReason(pod, proxy.status?.state?.running !== undefined),
      sidecar:
        sc && sel.source !== 'none'
          ? {
              namespace: sc.metadata.namespace ?? 'default',
              name: sc.metadata.name,
              source: sel.source,
            }
          : null,
    });
  }
  targets.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return { targets, withoutProxy };
}
