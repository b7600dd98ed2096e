import type { ProxyDetail } from '../../../lib/api/proxies';
import { requireName } from '../../../lib/kube/names';
import { buildProxyDetail } from '../../../lib/proxies/detail';
import { readProxyDetailParts, readRawClusters } from '../../envoy/admin';
import { runtimeFor } from '../../runtime/registry';
import type { ClusterRuntime } from '../../runtime/runtime';
import { requireLivePod } from '../../kube/pods';
import type { RequestScope } from '../../auth/identity';

/** Admin reads carry whole config sections: give them more time than a :15090 scrape. */
const detailTimeout = (rt: ClusterRuntime) =>
  Math.max(10_000, rt.settings.MESHDX_PROXY_TIMEOUT_MS * 3);

/** One proxy's istioctl cluster table, listener/route counts and used/unused clusters. */
export async function getProxyDetail(
  scope: RequestScope,
  namespace: string,
  name: string,
): Promise<ProxyDetail> {
  const ns = requireName('namespace', namespace);
  const pod = requireName('pod', name);
  const rt = runtimeFor(scope);
  await requireLivePod(rt.transport, ns, pod);
  const parts = await readProxyDetailParts(rt.kc, ns, pod, detailTimeout(rt));
  return buildProxyDetail(parts);
}

/** The unmasked cluster sections of the proxy's config dump (never secrets), as JSON text. */
export async function getProxyRawClusters(
  scope: RequestScope,
  namespace: string,
  name: string,
): Promise<string> {
  const ns = requireName('namespace', namespace);
  const pod = requireName('pod', name);
  const rt = runtimeFor(scope);
  await requireLivePod(rt.transport, ns, pod);
  return readRawClusters(rt.kc, ns, pod, detailTimeout(rt));
}
