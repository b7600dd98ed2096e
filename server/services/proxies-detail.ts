import type { ProxyDetail } from '../../lib/api/proxies';
import { requireName } from '../../lib/kube/names';
import { buildProxyDetail } from '../../lib/proxies/detail';
import { readProxyDetailParts, readRawClusters } from '../envoy/admin';
import { cluster, env } from '../wiring';

/** Admin reads carry whole config sections: give them more time than a :15090 scrape. */
const detailTimeout = () => Math.max(10_000, env().MESHDX_PROXY_TIMEOUT_MS * 3);

/** One proxy's istioctl cluster table, listener/route counts and used/unused clusters. */
export async function getProxyDetail(namespace: string, name: string): Promise<ProxyDetail> {
  const ns = requireName('namespace', namespace);
  const pod = requireName('pod', name);
  const parts = await readProxyDetailParts(cluster().kc, ns, pod, detailTimeout());
  return buildProxyDetail(parts);
}

/** The unmasked cluster sections of the proxy's config dump (never secrets), as JSON text. */
export async function getProxyRawClusters(namespace: string, name: string): Promise<string> {
  const ns = requireName('namespace', namespace);
  const pod = requireName('pod', name);
  return readRawClusters(cluster().kc, ns, pod, detailTimeout());
}
