/**
 * Per-cluster traffic of one proxy from its Envoy admin `/stats` (:15000 over port-forward):
 * which outbound clusters it really used, and how many service clusters it carries. One call
 * gives both: without `usedonly` Envoy lists `upstream_rq_total`/`upstream_cx_total` for every
 * cluster it has (zeros included), so the cluster inventory comes with the traffic. Clusters
 * with zero traffic are not hits.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { failureReason } from '../../envoy/reason';
import { envoyAdminGet } from '../../kube/podports';
import {
  USAGE_STATS_PATH,
  usageFromStatsText,
  usageObservation,
  type UsageRead,
} from '../../../lib/scoping/envoy-usage';

/** One proxy's usage over port-forward. Never throws: a failure is an unavailable observation. */
export async function readEnvoyUsage(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  timeoutMs: number,
): Promise<UsageRead> {
  try {
    const res = await envoyAdminGet(kc, namespace, pod, USAGE_STATS_PATH, {
      timeoutMs,
      maxBytes: 32 * 1024 * 1024,
    });
    if (res.status !== 200) throw new Error(`Envoy admin /stats answered ${res.status}`);
    return usageObservation(namespace, pod, usageFromStatsText(res.body));
  } catch (e) {
    return {
      observation: {
        source: 'envoy-stats',
        namespace,
        pod,
        available: false,
        error: failureReason(e),
        hits: [],
      },
      usage: null,
    };
  }
}
