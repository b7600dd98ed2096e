import {
  ARCHIVE_PLATFORM,
  ArchiveInfoSchema,
  type ClusterInfo,
  type Contexts,
} from '../../../lib/api/cluster';
import { isKubeError } from '../../kube/errors';
import { servedIstioVersion } from '../../kube/resources';
import { isClusterConfigError } from '../../kube/source';
import { toErrorResult } from '../../http';
import { Memo } from '../../runtime/memo';
import { contexts, runtimeFor } from '../../runtime/registry';
import { defineScreen } from '../../runtime/runtime';
import { viewDeadline } from '../deadline';
import type { RequestScope } from '../../auth/identity';

const TTL_MS = 5_000;

const infoScreen = defineScreen('cluster-info', () => new Memo<ClusterInfo>(TTL_MS));

/** Which cluster is shown and whether it answers: the header of every page. */
export async function getClusterInfo(scope: RequestScope): Promise<ClusterInfo> {
  let rt;
  try {
    rt = runtimeFor(scope);
  } catch (e) {
    if (!isClusterConfigError(e)) throw e;
    const r = toErrorResult(e, scope.identity);
    return {
      label: 'no cluster',
      source: 'none',
      server: '',
      reachable: false,
      error: r.body.error,
    };
  }
  const c = rt;
  const memo = c.screen(infoScreen);
  return memo.get(async () => {
    const base = {
      label: c.source.label,
      source: c.source.kind,
      server: c.source.server,
      context: c.source.context,
    } as const;
    // by the view's deadline: a slow API server is slow, not unreachable
    const d = viewDeadline(c, 'The cluster header');
    try {
      const [version, istio] = await Promise.all([
        c.transport.getJson<{ gitVersion?: string; platform?: string }>('/version', {
          timeoutMs: d.remaining(),
        }),
        d.within(
          'Istio API version',
          servedIstioVersion(c.transport).catch(() => null),
        ),
      ]);
      // an archive opened with `meshdx open` says what it is, when it was captured and what it
      // lacks: every page's header shows it
      const archive =
        version.platform === ARCHIVE_PLATFORM
          ? ArchiveInfoSchema.parse(
              await c.transport.getJson<unknown>('/meshdx/archive', { timeoutMs: d.remaining() }),
            )
          : undefined;
      return {
        ...base,
        reachable: true,
        version: version.gitVersion,
        ...(archive ? { archive } : {}),
        istioApiVersion: istio.ok ? istio.value : null,
        ...(d.late.length > 0 ? { late: [...d.late] } : {}),
      };
    } catch (e) {
      if (!isKubeError(e)) throw e;
      return { ...base, reachable: false, error: toErrorResult(e, scope.identity).body.error };
    }
  });
}

/** GET /api/contexts: the kubeconfig's contexts, or the single in-cluster one. */
export function getContexts(): Contexts {
  return contexts();
}
