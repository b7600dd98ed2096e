/**
 * The findings report's access-log reads: one running pod per meshed workload (up to a limit),
 * each log a source of the report, with how far the reads have got.
 */
import type { FindingsReport } from '../../../lib/api/findings';
import { parseAccessLog } from '../../../lib/accesslog/parser';
import type { AccessLogRecord } from '../../../lib/accesslog/types';
import type { Pod, Service } from '../../../lib/kube/types';
import type { ClientRecords } from '../../../lib/protocol/external';
import { hasProxy } from '../../../lib/dataplane/proxy-container';
import { groupWorkloads, pickLogWorkloads } from '../../../lib/protocol/select';
import { mapBounded } from '../../../lib/proxies/pool';
import { podLogs } from '../../kube/logs';
import type { KubeTransport } from '../../kube/transport';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';
import { podKey } from '../../../lib/refs/pod-ref';

export interface FindingsOptions {
  /** Most istio-proxy logs read for the external-host check (one pod per workload). */
  maxLogPods?: number;
  logTailLines?: number;
  logTimeoutMs?: number;
  logConcurrency?: number;
}

export type Source = NonNullable<FindingsReport['sources']>[number];

/** How far the report's log reads have got (one pod per workload). */
export interface LogProgress {
  read: number;
  /** Logs to read; null until the workloads are picked. */
  of: number | null;
}

/** The options of a report's log reads, defaults filled in. */
export function logOptions(opts: FindingsOptions): Required<FindingsOptions> {
  return {
    maxLogPods: opts.maxLogPods ?? 20,
    logTailLines: opts.logTailLines ?? 2000,
    logTimeoutMs: opts.logTimeoutMs ?? 5000,
    logConcurrency: opts.logConcurrency ?? 4,
  };
}

/** Access logs of one running pod per meshed workload (up to max), each a source in the report. */
export async function readAccessLogs(
  t: KubeTransport,
  pods: readonly Pod[],
  services: readonly Service[],
  o: Required<FindingsOptions>,
  progress: LogProgress = { read: 0, of: null },
): Promise<{ logs: ClientRecords[]; sources: Source[] }> {
  const running = pods.filter((p) => p.status?.phase === 'Running' && hasProxy(p));
  const groups = groupWorkloads(running);
  const picked = pickLogWorkloads(groups, services, o.maxLogPods);
  const sources: Source[] = [];
  if (groups.length > picked.length) {
    sources.push({
      name: 'istio-proxy logs',
      ok: true,
      detail: `read ${picked.length} of ${groups.length} meshed workloads (limit ${o.maxLogPods})`,
    });
  }
  progress.of = picked.length;
  type Read = { entry: ClientRecords | null; source: Source };
  const results = await mapBounded<(typeof picked)[number], Read>(
    picked,
    o.logConcurrency,
    async (g) => {
      const ns = g.namespace;
      const name = `logs ${podKey(ns, g.pod.metadata.name)}`;
      try {
        const text = await podLogs(t, ns, g.pod.metadata.name, 'istio-proxy', {
          tailLines: o.logTailLines,
          timeoutMs: o.logTimeoutMs,
        });
        const lines = parseAccessLog(text);
        const records: AccessLogRecord[] = [];
        let errors = 0;
        for (const l of lines) {
          if (l.kind === 'record') records.push(l.record);
          else if (l.kind === 'error') errors += 1;
        }
        const client = { kind: g.kind, namespace: ns, name: g.name };
        const detail = `${records.length} access-log records, ${errors} unreadable lines, ${lines.length - records.length - errors} proxy lines`;
        return { entry: { client, records }, source: { name, ok: true, detail } };
      } catch (e) {
        return { entry: null, source: { name, ok: false, detail: (e as Error).message } };
      }
    },
    {
      onDone: () => {
        progress.read += 1;
      },
      onThrow: (e, g) => ({
        entry: null,
        source: {
          name: `logs ${podKey(g.namespace, g.pod.metadata.name)}`,
          ok: false,
          detail: String(e),
        },
      }),
    },
  );
  const logs: ClientRecords[] = [];
  for (const r of results) {
    sources.push(r.source);
    if (r.entry !== null) logs.push(r.entry);
  }
  return { logs, sources };
}

type LogsRead = Awaited<ReturnType<typeof readAccessLogs>>;
/** The access logs read last, and when: shared by the runs of the cache time. */
const findingsLogsScreen = defineScreen<{
  last: { at: number; job: Promise<LogsRead>; progress: LogProgress } | null;
}>('findings-logs', () => ({ last: null }));

/**
 * The access logs a report reads: what a run started within `ttlMs` (the report's cache time) read (or is
 * reading), else read now. They are what the proxies logged, not configuration: a report made
 * again for a configuration change does not read every workload's log again (a `kubectl apply`
 * would otherwise wait for 20 log reads through the API server). `share` false (a run with its
 * own options): read now, not shared.
 */
export function sharedLogs(
  rt: ClusterRuntime,
  share: boolean,
  ttlMs: number,
  read: (progress: LogProgress) => Promise<LogsRead>,
): { job: Promise<LogsRead>; progress: LogProgress } {
  const state = rt.screen(findingsLogsScreen);
  const last = state.last;
  if (share && last && Date.now() - last.at < ttlMs) return last;
  const progress: LogProgress = { read: 0, of: null };
  const job = read(progress);
  if (!share) return { job, progress };
  const entry = { at: Date.now(), job, progress };
  state.last = entry;
  // a failed read is not shared: the next run reads again
  job.catch(() => {
    if (state.last === entry) state.last = null;
  });
  return entry;
}
