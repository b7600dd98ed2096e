import type { Pod } from '../../lib/kube/types';
import { isKubeError, KubeError } from './errors';
import { collectionPath, CORE } from './resources';
import type { KubeTransport } from './transport';
import { podKey } from '../../lib/refs/pod-ref';

/**
 * The pod, read from the API server; a pod that does not exist is a 404 that names it (before
 * a port-forward to it fails with whatever the kubelet says).
 */
export async function requireLivePod(
  t: KubeTransport,
  namespace: string,
  name: string,
): Promise<Pod> {
  try {
    return await t.getJson<Pod>(`${collectionPath(CORE.pods, namespace)}/${name}`);
  } catch (e) {
    if (isKubeError(e) && e.status === 404) {
      throw new KubeError('http', `pod ${podKey(namespace, name)} does not exist`, {
        status: 404,
        reason: 'NotFound',
      });
    }
    throw e;
  }
}
