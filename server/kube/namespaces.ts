/**
 * Whether a namespace a user named exists, asked of the API server (GET namespaces/NAME), so that
 * a filter on a namespace that is not there is a 404 naming it instead of an empty-looking view.
 */
import { RequestError } from '../../lib/api/request-error';
import { requireName } from '../../lib/kube/names';
import { isKubeError } from './errors';
import type { KubeTransport } from './transport';

/**
 * Resolves when `namespace` exists, or when the caller may not read namespaces (403: RBAC that
 * grants pods in one namespace only says nothing about the others); throws the 404 naming it
 * when the API server says it does not exist.
 */
export async function requireNamespace(t: KubeTransport, namespace: string): Promise<void> {
  const ns = requireName('namespace', namespace);
  try {
    await t.getJson<unknown>(`/api/v1/namespaces/${ns}`, { timeoutMs: 10_000 });
  } catch (e) {
    if (isKubeError(e) && e.status === 404)
      throw new RequestError(
        404,
        'NAMESPACE_NOT_FOUND',
        `namespace: ${JSON.stringify(ns)} does not exist in this cluster`,
        'Check the name (kubectl get namespaces), or leave namespace out to see every namespace.',
      );
    if (isKubeError(e) && e.status === 403) return;
    throw e;
  }
}
