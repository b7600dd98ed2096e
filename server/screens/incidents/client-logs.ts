/**
 * The client proxies' istio-proxy logs Incidents reads: how many at once, how much of each, and
 * what a log not read by the view's deadline is called. memory.ts reads them the same way.
 */
import type { IncidentsQuery } from '../../../lib/incidents/choose';
import type { LogInput } from '../../../lib/incidents/log-input';
import type { Pod } from '../../../lib/kube/types';
import { mapBounded } from '../../../lib/proxies/pool';
import { podKey, podKeyOfObject } from '../../../lib/refs/pod-ref';
import { podLogs } from '../../kube/logs';
import type { KubeTransport } from '../../kube/transport';

export const LOG_CONCURRENCY = 8;
export const LOG_LIMIT_BYTES = 16 * 1024 * 1024;
export const LOG_TAIL_LINES = 20_000;
export const LOG_LATE = "not read by the view's deadline (MESHDX_VIEW_DEADLINE_MS)";

/** The istio-proxy log of each client pod in the window; a failed fetch becomes a source problem. */
export async function fetchClientLogs(
  t: KubeTransport,
  pods: readonly Pod[],
  q: IncidentsQuery,
  /** Settles when the view must answer: logs not in by then are a named problem. */
  until?: Promise<unknown>,
): Promise<LogInput[]> {
  const read = async (p: Pod): Promise<LogInput> => {
    const ns = p.metadata.namespace ?? 'default';
    const source = podKey(ns, p.metadata.name);
    try {
      const text = await podLogs(t, ns, p.metadata.name, 'istio-proxy', {
        sinceTime: q.from,
        tailLines: q.from ? undefined : LOG_TAIL_LINES,
        limitBytes: LOG_LIMIT_BYTES,
      });
      return { source, clientPod: source, text };
    } catch (e) {
      return {
        source,
        clientPod: source,
        text: '',
        problem: e instanceof Error ? e.message : String(e),
      };
    }
  };
  const failed = (p: Pod, problem: string): LogInput => {
    const source = podKeyOfObject(p);
    return { source, clientPod: source, text: '', problem };
  };
  return mapBounded(pods, LOG_CONCURRENCY, read, {
    onThrow: (e, p) => failed(p, String(e)),
    ...(until ? { deadline: until, late: (p: Pod) => failed(p, LOG_LATE) } : {}),
  });
}
