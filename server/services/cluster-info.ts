import type { ClusterInfo } from '../../lib/api/cluster';
import { isKubeError } from '../kube/errors';
import { servedIstioVersion } from '../kube/resources';
import { isClusterConfigError } from '../kube/source';
import { toErrorResult } from '../http';
import { cluster } from '../wiring';

let cached: { at: number; info: ClusterInfo } | undefined;
const TTL_MS = 5_000;

/** Which cluster is shown and whether it answers: the header of every page. */
export async function getClusterInfo(): Promise<ClusterInfo> {
  if (cached && Date.now() - cached.at < TTL_MS) return cached.info;
  let info: ClusterInfo;
  try {
    const c = cluster();
    const base = {
      label: c.source.label,
      source: c.source.kind,
      server: c.source.server,
      context: c.source.context,
    } as const;
    try {
      const [version, istio] = await Promise.all([
        c.transport.getJson<{ gitVersion?: string }>('/version', { timeoutMs: 3_000 }),
        servedIstioVersion(c.transport).catch(() => null),
      ]);
      info = { ...base, reachable: true, version: version.gitVersion, istioApiVersion: istio };
    } catch (e) {
      const r = toErrorResult(e);
      info = { ...base, reachable: false, error: r.body.error };
    }
  } catch (e) {
    if (!isClusterConfigError(e) && !isKubeError(e)) throw e;
    const r = toErrorResult(e);
    info = {
      label: 'no cluster',
      source: 'none',
      server: '',
      reachable: false,
      error: r.body.error,
    };
  }
  cached = { at: Date.now(), info };
  return info;
}
