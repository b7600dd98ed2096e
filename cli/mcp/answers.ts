/**
 * What each tool of `meshdx mcp` answers, read from the view models the dashboard's pages read
 * (lib/api schemas): picked fields, never a figure computed again. Each answer carries the deep
 * link that opens the same view in the dashboard, with the URL state its page keeps.
 */
import type { IncidentsView } from '../../lib/api/incidents';
import type { PodDetail, PodList } from '../../lib/api/inventory';
import type { PodTimelineView } from '../../lib/api/timelines';
import type { FleetView } from '../../lib/api/proxies';
import type { ScopingView } from '../../lib/api/scoping-view';
import type { FindingsReport } from '../../lib/api/findings';
import { viewStateQuery, type ViewState } from '../../lib/api/viewstate';
import { linkTo, withContext } from '../../lib/api/context';
import { podKey, podPageHref } from '../../lib/refs/pod-ref';
import { findingsShown } from '../../lib/findings/view-filter';

/** `path?query` of the dashboard at `base`, with the context: the link a page keeps. */
export function dashboardLink(
  base: string,
  path: string,
  state: Record<string, string | undefined | null>,
  context: string | null,
): string {
  const rel = linkTo(path, viewStateQuery(state).replace(/^\?/, ''), context);
  return new URL(rel.replace(/^\//, ''), base).toString();
}

/** The pod page of a pod (by uid when known), absolute. */
export function podPageLink(
  base: string,
  pod: { namespace: string; name: string; uid?: string | null },
  context: string | null,
): string {
  return new URL(withContext(podPageHref(pod), context).replace(/^\//, ''), base).toString();
}

/** Who held an IP in a window and who kept sending to it: Incidents with `?ip=`. */
export function ipHolderAnswer(
  ip: string,
  view: IncidentsView,
  now: PodList | { error: unknown },
  link: string,
) {
  return {
    link,
    ip,
    window: view.window,
    /** The pods that held the IP when each failing request was sent (Incidents' pods table). */
    holders: view.pods.map((p) => ({
      pod: p.pod ? podKey(p.pod.namespace, p.pod.name) : null,
      uid: p.pod?.uid ?? null,
      owner: p.owner,
      node: p.node,
      state: p.state,
      requests: p.count,
      byCode: p.byCode,
      byFlag: p.byFlag,
      firstTime: p.firstTime,
      lastTime: p.lastTime,
      deletionStartedAt: p.deletionStartedAt,
      goneAt: p.goneAt,
      maxAfterTerminationMs: p.maxAfterTerminationMs,
      clients: p.clients,
      services: p.services,
    })),
    /** Per client proxy, how long it kept sending to the pod after its deletion began. */
    stillSending: view.lag.rows,
    /** Which layer held the address, per client (EndpointSlice, istiod, Envoy). */
    layers: view.layers.timelines.map((t) => ({
      client: t.client,
      pod: t.pod,
      held: t.held,
      heldMs: t.heldMs,
      sentence: t.sentence,
    })),
    requests: {
      failing: view.totals.failing,
      shown: view.totals.shown,
      byState: view.totals.byState,
    },
    /** The live pod that holds the IP now (GET /api/pods?ip=), or why it was not read. */
    holdsNow:
      'error' in now
        ? now
        : now.pods.map((p) => ({ pod: podKey(p.namespace, p.name), uid: p.uid, phase: p.phase })),
    history: view.history,
    unreadLogs: view.sources.filter((s) => s.problem !== null),
    late: view.late,
  };
}

/** Why a pod failed at start: its timeline's verdicts (Timelines' pod row). */
export function podStartupAnswer(view: PodTimelineView, links: { timeline: string; pod: string }) {
  return {
    link: links.timeline,
    podLink: links.pod,
    pod: podKey(view.namespace, view.name),
    uid: view.uid,
    workload: { kind: view.workloadKind, name: view.workload },
    mode: view.mode,
    modeReasons: view.modeReasons,
    excluded: view.excluded,
    deleted: view.deleted,
    deletedAt: view.deletedAt,
    restarts: view.restarts,
    proxyReady: view.proxyReady,
    appStartedAt: view.appStartedAt,
    /** App start minus proxy ready: negative, the app started before its proxy was ready. */
    gapMs: view.gapMs,
    /** Startup verdicts first, then shutdown, as Timelines lists them. */
    verdicts: [...view.verdicts].sort(
      (a, b) => Number(a.phase !== 'startup') - Number(b.phase !== 'startup'),
    ),
    notes: view.notes,
  };
}

/** A pod's page (GET /api/pods/NS/NAME), as open_link shows it. */
export function podPageAnswer(view: PodDetail, link: string) {
  return {
    link,
    pod: podKey(view.pod.namespace, view.pod.name),
    uid: view.pod.uid,
    phase: view.pod.phase,
    ready: view.pod.ready,
    gone: view.gone,
    deletion: view.deletion,
    dataplane: view.pod.dataplane,
    proxy: view.pod.proxy,
    ips: view.ips,
    events: view.events.filter((e) => e.type !== 'Normal'),
    transitions: view.transitions.length,
  };
}

/**
 * The proxies no Sidecar scopes (they carry every service of the mesh) and the Sidecars Scoping
 * proposes: Proxies' namespace summary and Scoping's generated resources.
 */
export function unscopedAnswer(
  fleet: FleetView,
  scoping: ScopingView,
  namespace: string | undefined,
  links: { proxies: string; scoping: string },
) {
  const inNs = (ns: string) => namespace === undefined || ns === namespace;
  return {
    link: links.proxies,
    scopingLink: links.scoping,
    totals: {
      proxies: fleet.totals.proxies,
      unscopedProxies: fleet.totals.unscopedProxies,
      /** Proxies whose Sidecar is unknown: unscopedProxies is then a floor. */
      sidecarUnknown: fleet.totals.sidecarUnknown,
    },
    namespaces: fleet.namespaces
      .filter((n) => n.unscoped && inNs(n.namespace))
      .map((n) => ({
        namespace: n.namespace,
        proxies: n.proxies,
        unscopedProxies: n.unscopedProxies,
        sidecarUnknown: n.sidecarUnknown,
        clusters: n.clusters,
        maxClusters: n.maxClusters,
      })),
    workloads: fleet.topWorkloads
      .filter((w) => w.unscoped && inNs(w.namespace))
      .map((w) => ({
        namespace: w.namespace,
        workload: w.workload,
        kind: w.workloadKind,
        proxies: w.proxies,
        clusters: w.clusters,
      })),
    /** Scoping's proposed Sidecars: apply them with kubectl (meshdx writes nothing). */
    sidecars: scoping.report.generated
      .filter((g) => inNs(g.namespace))
      .map((g) => ({
        namespace: g.namespace,
        name: g.name,
        level: g.level,
        action: g.action,
        apply: g.apply,
        workloads: g.workloads,
        proxies: g.proxies,
        clustersBefore: g.clustersBefore,
        clustersAfter: g.clustersAfter,
        warnings: g.warnings,
        yaml: g.yaml,
      })),
    window: scoping.report.window,
    late: [...(fleet.late ?? []), ...(scoping.late ?? [])],
  };
}

/** What Findings shows for its URL state (lib/findings/view-filter.ts, as the page reads it). */
export function findingsAnswer(report: FindingsReport, state: ViewState<'findings'>, link: string) {
  const shown = findingsShown(report, state);
  const titles = new Map(report.catalog.map((c) => [c.code, c.title]));
  return {
    link,
    generatedAt: report.generatedAt,
    groups: shown.groups.map((g) => ({
      code: g.code,
      title: g.title,
      severity: g.severity,
      harm: g.harm,
      count: g.count,
      harmed: g.harmed,
      fix: g.fix,
      subjects: g.objects.map((o) => o.subject),
    })),
    findings: shown.rows.map((f) => ({ ...f, title: titles.get(f.code) ?? f.code })),
    notApplicable: shown.notApplicable.length,
    sources: (report.sources ?? []).filter((s) => !s.ok),
    late: report.late,
  };
}

/** An Incidents view as open_link shows it: its holders, services and findings. */
export function incidentsAnswer(view: IncidentsView, link: string) {
  return {
    link,
    window: view.window,
    requests: {
      failing: view.totals.failing,
      shown: view.totals.shown,
      byState: view.totals.byState,
    },
    pods: ipHolderAnswer('', view, { error: null }, link).holders,
    services: view.services.map((s) => ({
      service: s.fqdn,
      failing: s.count,
      byFlag: s.byFlag,
      replicas: s.replicas,
      destinationRule: s.destinationRule,
    })),
    stillSending: view.lag.rows,
    findings: view.findings,
    memory: view.memory?.text ?? null,
    late: view.late,
  };
}
