/**
 * istiod push health from its monitoring port (:15014 /metrics): how long config changes take to
 * reach proxies (pilot_proxy_convergence_time), how many pushes went out by type
 * (pilot_xds_pushes), connected proxies and pushed config size. Read from every istiod replica.
 */
import type { IstiodPush } from '../../../lib/api/scoping-view';
import type { Pod } from '../../../lib/kube/types';
import { failureReason } from '../../envoy/reason';
import { podProxyGet } from '../../kube/podports';
import type { KubeTransport } from '../../kube/transport';
import { pushFromMetrics } from '../../../lib/scoping/push-health';

export const ISTIOD_MONITORING_PORT = 15014;

/** GET /metrics of one istiod through pods/proxy (the monitoring endpoint needs no auth). */
export async function readIstiodPush(
  t: KubeTransport,
  pod: Pod,
  timeoutMs: number,
): Promise<IstiodPush> {
  const name = pod.metadata.name;
  try {
    const res = await podProxyGet(
      t,
      pod.metadata.namespace ?? 'istio-system',
      name,
      ISTIOD_MONITORING_PORT,
      '/metrics',
      {
        timeoutMs,
        maxBytes: 32 * 1024 * 1024,
      },
    );
    return pushFromMetrics(name, res.body);
  } catch (e) {
    return pushNotRead(name, failureReason(e));
  }
}

/** One istiod whose push health was not read (unreachable, late): every figure unknown, and why. */
export function pushNotRead(pod: string, error: string): IstiodPush {
  return {
    pod,
    reachable: false,
    error,
    connectedProxies: null,
    services: null,
    pushes: {},
    convergence: null,
    configSizeMeanBytes: null,
    implausible: [],
  };
}
