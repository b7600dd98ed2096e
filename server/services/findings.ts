import type { FindingsReport } from '../../lib/api/findings';
import { parseAccessLog } from '../../lib/accesslog/parser';
import type { AccessLogRecord } from '../../lib/accesslog/types';
import { INVENTORY_CATALOG, inventoryFindings } from '../../lib/findings/inventory';
import type { Pod, Service } from '../../lib/kube/types';
import { protocolFindings } from '../../lib/protocol/analyze';
import { PROTOCOL_CATALOG } from '../../lib/protocol/codes';
import type { ClientRecords } from '../../lib/protocol/external';
import { groupWorkloads, isMeshed, pickLogWorkloads } from '../../lib/protocol/select';
import { podLogs } from '../kube/logs';
import { listPods, listServices } from '../kube/resources';
import type { KubeTransport } from '../kube/transport';
import { cluster, env } from '../wiring';
import { getInventory } from './inventory';

export interface FindingsOptions {
  /** Most istio-proxy logs read for the external-host check (one pod per workload). */
  maxLogPods?: number;
  logTailLines?: number;
  logTimeoutMs?: number;
  logConcurrency?: number;
}

type Source = NonNullable<FindingsReport['sources']>[number];

async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>) {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/** Access logs of one running pod per meshed workload (up to max), each a source in the report. */
async function readAccessLogs(
  t: KubeTransport,
  pods: readonly Pod[],
  services: readonly Service[],
  o: Required<FindingsOptions>,
): Promise<{ logs: ClientRecords[]; sources: Source[] }> {
  const running = pods.filter((p) => p.status?.phase === 'Running' && isMeshed(p));
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
  const results = await mapBounded(picked, o.logConcurrency, async (g) => {
    const ns = g.namespace;
    const name = `logs ${ns}/${g.pod.metadata.name}`;
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
  });
  const logs: ClientRecords[] = [];
  for (const r of results) {
    sources.push(r.source);
    if (r.entry !== null) logs.push(r.entry);
  }
  return { logs, sources };
}

/** Every finding meshdx can make from what it reads, with the catalog that explains the codes. */
export async function getFindings(opts: FindingsOptions = {}): Promise<FindingsReport> {
  const o: Required<FindingsOptions> = {
    maxLogPods: opts.maxLogPods ?? 20,
    logTailLines: opts.logTailLines ?? 2000,
    logTimeoutMs: opts.logTimeoutMs ?? 5000,
    logConcurrency: opts.logConcurrency ?? 4,
  };
  const { transport: t } = cluster();
  const [inv, pods, services] = await Promise.all([getInventory(), listPods(t), listServices(t)]);
  const { logs, sources } = await readAccessLogs(t, pods.items, services.items, o);
  return {
    generatedAt: new Date().toISOString(),
    catalog: [...INVENTORY_CATALOG, ...PROTOCOL_CATALOG],
    findings: [
      ...inventoryFindings(inv, env().MESHDX_ISTIO_NAMESPACE),
      ...protocolFindings({ services: services.items, pods: pods.items, accessLogs: logs }),
    ],
    sources: [
      { name: 'pods', ok: true, detail: `${pods.items.length} pods` },
      { name: 'services', ok: true, detail: `${services.items.length} services` },
      ...sources,
    ],
  };
}
