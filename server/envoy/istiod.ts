import type { KubeConfig } from '@kubernetes/client-node';
import type { Pod } from '../../lib/kube/types';
import { parseSyncz, type SyncParse } from '../../lib/proxies/sync';
import { parseSynczNonces, type SynczNonces } from '../../lib/proxies/staleness';
import { portForwardGetBytes } from '../kube/podports';
import { failureReason } from './reason';

/** Running istiod replicas (label app=istiod) in the Istio namespace. */
export function istiodPods(pods: readonly Pod[], istioNamespace: string): Pod[] {
  return pods.filter(
    (p) =>
      p.metadata.namespace === istioNamespace &&
      p.metadata.labels?.app === 'istiod' &&
      !p.metadata.deletionTimestamp &&
      p.status?.phase === 'Running' &&
      !!p.status.podIP,
  );
}

/**
 * /debug/syncz from every istiod replica (a proxy is listed only by the replica it is connected
 * to), merged. A replica that cannot be read is a problem in `errors`, not a failure of the scan.
 */
export async function readSyncStatus(
  kc: KubeConfig,
  istiods: readonly Pod[],
  timeoutMs: number,
): Promise<SyncParse & { istiods: number; nonces: SynczNonces[] }> {
  const out: SyncParse = { byProxy: new Map(), errors: [] };
  const nonces: SynczNonces[] = [];
  if (istiods.length === 0) out.errors.push('no running istiod pod found: sync state unavailable');
  const bodies = await Promise.all(
    istiods.map(async (p) => {
      const ns = p.metadata.namespace ?? 'istio-system';
      try {
        const res = await portForwardGetBytes(kc, ns, p.metadata.name, 15014, '/debug/syncz', {
          timeoutMs,
        });
        if (res.status !== 200) return { pod: p.metadata.name, error: `HTTP ${res.status}` };
        return { pod: p.metadata.name, body: res.bytes };
      } catch (e) {
        return { pod: p.metadata.name, error: failureReason(e) };
      }
    }),
  );
  for (const b of bodies) {
    if (b.body !== undefined) {
      parseSyncz(b.pod, b.body, out);
      // the same body's nonces, for the staleness ranking (its errors are parseSyncz's own)
      for (const r of parseSynczNonces(b.pod, b.body.toString('utf8')).rows) nonces.push(r);
    } else out.errors.push(`${b.pod}: ${b.error ?? 'no answer'}`);
  }
  return { ...out, istiods: istiods.length, nonces };
}
