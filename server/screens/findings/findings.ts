import type { FindingsReport } from '../../../lib/api/findings';
import { parseAccessLog } from '../../../lib/accesslog/parser';
import type { AccessLogRecord } from '../../../lib/accesslog/types';
import { inventoryFindings } from '../../../lib/findings/inventory';
import { checkScreened } from '../../../lib/findings/manifest';
import { ALL_CATALOG } from '../../../lib/findings/registry';
import { screenLists, suppressibleObjects } from '../../../lib/findings/screen';
import { annotationIndex, applySuppressions } from '../../../lib/findings/suppress';
import { groupFindings } from '../../../lib/findings/group';
import { holdCounts, workloadTimelineFindings } from '../../../lib/timeline/workload-findings';
import { dedupeFindings } from '../../../lib/findings/types';
import { buildInventory } from '../../../lib/inventory/build';
import type { Pod, Service } from '../../../lib/kube/types';
import type { ClientRecords } from '../../../lib/protocol/external';
import { hasProxy } from '../../../lib/kube/proxy-container';
import { groupWorkloads, pickLogWorkloads } from '../../../lib/protocol/select';
import { mapBounded } from '../../../lib/proxies/pool';
import { podLogs } from '../../kube/logs';
import { listIstioConfig, listNamespaces, listServices } from '../../kube/resources';
import type { KubeTransport } from '../../kube/transport';
import { runtimeFor } from '../../runtime/registry';
import { Memo } from '../../runtime/memo';
import { scopingOf } from '../scoping/scoping';
import { incidentsOf } from '../incidents/incidents';
import { ambientOf } from '../overview/ambient';
import { timelineFleetOf } from '../timelines/timelines';
import { podListDetail, viewDeadline } from '../deadline';
import type { RequestScope } from '../../auth/identity';
import { podKey } from '../../../lib/refs/pod-ref';

export interface FindingsOptions {
  /** Most istio-proxy logs read for the external-host check (one pod per workload). */
  maxLogPods?: number;
  logTailLines?: number;
  logTimeoutMs?: number;
  logConcurrency?: number;
}

type Source = NonNullable<FindingsReport['sources']>[number];

/** Access logs of one running pod per meshed workload (up to max), each a source in the report. */
async function readAccessLogs(
  t: KubeTransport,
  pods: readonly Pod[],
  services: readonly Service[],
  o: Required<FindingsOptions>,
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

/** Every finding meshdx can make from what it reads, with the catalog that explains the codes. */
/** A finished report is served this long: Overview and Findings both ask for it. */
export const FINDINGS_CACHE_MS = 30_000;

/**
 * The report of a context's cluster: one computation at a time, served from memory for a short
 * while (Overview's attention card and the Findings view ask for the same report). Options that
 * change what is read skip the cache.
 */
export function getFindings(
  scope: RequestScope,
  opts: FindingsOptions = {},
): Promise<FindingsReport> {
  const rt = runtimeFor(scope);
  if (Object.keys(opts).length > 0) return computeFindings(scope, opts);
  const memo = rt.screen('findings', () => new Memo<FindingsReport>(FINDINGS_CACHE_MS));
  return memo
    .get(() => computeFindings(scope, opts))
    .then((r) => {
      // a report that misses late analyses is not kept: the next view asks again
      if (r.late && r.late.length > 0 && memo.fresh() === r) memo.clear();
      return r;
    });
}

async function computeFindings(
  scope: RequestScope,
  opts: FindingsOptions,
): Promise<FindingsReport> {
  const o: Required<FindingsOptions> = {
    maxLogPods: opts.maxLogPods ?? 20,
    logTailLines: opts.logTailLines ?? 2000,
    logTimeoutMs: opts.logTimeoutMs ?? 5000,
    logConcurrency: opts.logConcurrency ?? 4,
  };
  const rt = runtimeFor(scope);
  const t = rt.transport;
  // the lists every finding is made from are needed; each analysis is taken if done by then
  const d = viewDeadline(rt, 'Findings');
  // pods come from the runtime's pod watch (trimmed to what the checks read), with the objects
  // its list could not read, so a malformed pod is still named (MDX0002)
  const [namespaces, , serviceList, istio, rootNamespace] = await Promise.all([
    d.need('namespaces', listNamespaces(t)),
    d.need('pods', rt.pods.whenListed(), () => podListDetail(rt)),
    d.need('services', listServices(t)),
    d.need('Istio config', listIstioConfig(t)),
    d.need('mesh config', rt.rootNamespace()),
  ]);
  // One malformed object is a finding (MDX0002), never a failed report: screen before use.
  const screened = screenLists({
    Namespace: [...namespaces.items, ...namespaces.rejected],
    Pod: [...rt.pods.snapshot(), ...rt.pods.rejectedObjects()],
    Service: [...serviceList.items, ...serviceList.rejected],
    Sidecar: istio.sidecars,
    DestinationRule: istio.destinationRules,
    VirtualService: istio.virtualServices,
    ServiceEntry: istio.serviceEntries,
  });
  const pods = { items: screened.pods };
  const services = { items: screened.services };
  const inv = buildInventory({
    namespaces: screened.namespaces,
    pods: screened.pods,
    services: screened.services,
    sidecars: screened.sidecars,
    destinationRules: screened.destinationRules.length,
    virtualServices: screened.virtualServices.length,
    serviceEntries: screened.serviceEntries.length,
    rootNamespace,
    now: t.clusterNow(),
  });
  const root = inv.rootNamespace;
  type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };
  const settle = async <T>(part: string, work: Promise<T>): Promise<Outcome<T>> => {
    try {
      const r = await d.within(part, work);
      return r.ok ? r : { ok: false, error: `late: ${r.late.detail}` };
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  };
  const [logsR, timelinesR, scopingR, incidentsR, ambientR] = await Promise.all([
    settle('istio-proxy logs', readAccessLogs(t, pods.items, services.items, o)),
    settle('timelines analysis', timelineFleetOf(rt, d)),
    settle('scoping analysis', scopingOf(rt)),
    settle('incidents analysis', incidentsOf(rt, {})),
    settle('ambient readiness', ambientOf(rt)),
  ]);
  const { logs, sources } = logsR.ok
    ? logsR.value
    : {
        logs: [],
        sources: [{ name: 'istio-proxy logs', ok: false, detail: logsR.error } as Source],
      };
  const timelines = timelinesR.ok
    ? {
        ok: true as const,
        findings: workloadTimelineFindings(timelinesR.value),
        hold: holdCounts(timelinesR.value),
      }
    : { ok: false as const, error: timelinesR.error };
  const scoping = scopingR.ok
    ? {
        ok: true as const,
        findings: scopingR.value.report.findings,
        catalog: scopingR.value.report.catalog,
      }
    : { ok: false as const, error: scopingR.error };
  const incidents = incidentsR.ok
    ? { ok: true as const, findings: incidentsR.value.findings }
    : { ok: false as const, error: incidentsR.error };
  const ambient = ambientR.ok
    ? { ok: true as const, findings: ambientR.value.namespaces.flatMap((n) => n.findings) }
    : { ok: false as const, error: ambientR.error };
  // where two analyses make the same finding the first is kept: Scoping's MDX0301 carries a
  // Sidecar whose egress holds the namespaces the workloads were seen calling, the
  // inventory's (kept when Scoping is late) only the namespace and the control plane
  const all = dedupeFindings([
    ...(scoping.ok ? scoping.findings : []),
    ...inventoryFindings(inv, root, rt.settings.MESHDX_ISTIO_NAMESPACE),
    ...checkScreened(screened, root, logs),
    ...(timelines.ok ? timelines.findings : []),
    ...(incidents.ok ? incidents.findings : []),
    ...(ambient.ok ? ambient.findings : []),
  ]);
  // the galley.istio.io/analyze-suppress annotation silences a finding here as in the CLI
  const silenced = applySuppressions(all, [], annotationIndex(suppressibleObjects(screened)));
  const findings = silenced.kept;
  return {
    generatedAt: new Date().toISOString(),
    catalog: [...ALL_CATALOG],
    findings,
    groups: groupFindings(findings, {
      rootNamespace: root,
      istioNamespace: rt.settings.MESHDX_ISTIO_NAMESPACE,
      ...(timelines.ok ? timelines.hold : {}),
    }),
    sources: [
      { name: 'pods', ok: true, detail: `${screened.pods.length} pods` },
      { name: 'services', ok: true, detail: `${serviceList.items.length} services` },
      timelines.ok
        ? { name: 'timelines analysis', ok: true, detail: `${timelines.findings.length} findings` }
        : { name: 'timelines analysis', ok: false, detail: timelines.error },
      scoping.ok
        ? { name: 'scoping analysis', ok: true, detail: `${scoping.findings.length} findings` }
        : { name: 'scoping analysis', ok: false, detail: scoping.error },
      incidents.ok
        ? { name: 'incidents analysis', ok: true, detail: `${incidents.findings.length} findings` }
        : { name: 'incidents analysis', ok: false, detail: incidents.error },
      ambient.ok
        ? { name: 'ambient readiness', ok: true, detail: `${ambient.findings.length} findings` }
        : { name: 'ambient readiness', ok: false, detail: ambient.error },
      ...sources,
    ],
    ...(d.late.length > 0 ? { late: [...d.late] } : {}),
    ...(silenced.suppressed > 0
      ? { suppressed: { count: silenced.suppressed, by: silenced.counts } }
      : {}),
  };
}
