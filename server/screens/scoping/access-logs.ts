/**
 * Destinations a proxy called, from its access log (the istio-proxy container's log through
 * pods/log, bounded by tailLines): each record's upstream cluster becomes a hit. Proxy log lines
 * are skipped and counted; unreadable lines are counted; records without an upstream cluster
 * (pre-1.1 formats, custom formats without it) are counted, never silently dropped.
 */
import { PROXY_CONTAINER } from '../../../lib/scoping/proxy';
import type { TrafficObservation } from '../../../lib/scoping/types';
import { failureReason } from '../../envoy/reason';
import { podLogs } from '../../kube/logs';
import type { KubeTransport } from '../../kube/transport';
import { type AccessLogUsage, usageFromAccessLog } from '../../../lib/scoping/access-log-usage';

export interface AccessLogRead {
  observation: TrafficObservation;
  usage: AccessLogUsage | null;
}

/**
 * The access-log observation of one proxy. A log with no access-log record at all (access
 * logging off) is unavailable, not "called nothing". Never throws.
 */
export async function readAccessLogUsage(
  t: KubeTransport,
  namespace: string,
  pod: string,
  opts: { tailLines: number; timeoutMs: number; container?: string; format?: string },
): Promise<AccessLogRead> {
  const base = { source: 'access-log' as const, namespace, pod };
  try {
    const text = await podLogs(t, namespace, pod, opts.container ?? PROXY_CONTAINER, {
      tailLines: opts.tailLines,
      timeoutMs: opts.timeoutMs,
      limitBytes: 16 * 1024 * 1024,
    });
    const usage = usageFromAccessLog(text, opts.format);
    if (usage.records === 0) {
      return {
        observation: {
          ...base,
          available: false,
          error: `no access-log lines in the last ${opts.tailLines} log lines (access logging off?)`,
          hits: [],
        },
        usage,
      };
    }
    return { observation: { ...base, available: true, hits: usage.hits }, usage };
  } catch (e) {
    return {
      observation: { ...base, available: false, error: failureReason(e), hits: [] },
      usage: null,
    };
  }
}
