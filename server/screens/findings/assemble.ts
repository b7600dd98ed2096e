/**
 * The findings report made of what is in: the screened lists (config findings always) and each
 * analysis once it has finished, the others named as still running.
 */
import type { FindingsReport } from '../../../lib/api/findings';
import type { LatePart } from '../../../lib/api/late';
import { groupFindings, withHarmSeverity } from '../../../lib/findings/group';
import { inventoryFindings } from '../../../lib/findings/inventory';
import { istiodOfScreened, judgeByIstiod } from '../../../lib/findings/istiod-report';
import { checkScreened } from '../../../lib/findings/manifest';
import { ALL_CATALOG } from '../../../lib/findings/registry';
import { screenLists, suppressibleObjects, type Screened } from '../../../lib/findings/screen';
import { RULE_KINDS, rulesNotRun } from '../../../lib/findings/rules';
import { codesNotChecked } from '../../../lib/findings/claims';
import { annotationIndex, applySuppressions } from '../../../lib/findings/suppress';
import { dedupeFindings } from '../../../lib/findings/types';
import { buildInventory } from '../../../lib/inventory/build';
import type { ClientRecords } from '../../../lib/protocol/external';
import { holdCounts, workloadTimelineFindings } from '../../../lib/timeline/workload-findings';
import type {
  listGatewaysForRoutes,
  listIstioConfig,
  listNamespaces,
  listServices,
} from '../../kube/resources';
import type { KindLists } from '../../kube/kind-lists';
import type { ClusterRuntime } from '../../runtime/runtime';
import type { incidentsOf } from '../incidents/incidents';
import type { ambientOf } from '../overview/ambient';
import type { scopingOf } from '../scoping/scoping';
import type { timelineFleetOf } from '../timelines/timelines';
import type { Source } from './access-logs';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** The analyses a report is made of, as each finishes (absent: still running). */
export interface Parts {
  logs?: Outcome<{ logs: ClientRecords[]; sources: Source[] }>;
  timelines?: Outcome<Awaited<ReturnType<typeof timelineFleetOf>>>;
  scoping?: Outcome<Awaited<ReturnType<typeof scopingOf>>>;
  incidents?: Outcome<Awaited<ReturnType<typeof incidentsOf>>>;
  ambient?: Outcome<Awaited<ReturnType<typeof ambientOf>>>;
}

/** What an analysis of Parts gives when it succeeds. */
export type PartValue<K extends keyof Parts> =
  NonNullable<Parts[K]> extends Outcome<infer T> ? T : never;

/** A report being made: the whole of it, and the report of what is in so far. */
export interface FindingsRun {
  report: Promise<FindingsReport>;
  /** Settles once the lists every finding is made from are in. */
  listed: Promise<void>;
  /** The report of the parts in now, the rest named late; null until the lists are in. */
  soFar(): FindingsReport | null;
  /** The analyses in so far, each with when it came in (Date.now()). */
  readonly parts: Parts;
  readonly partsAt: Partial<Record<keyof Parts, number>>;
  /** The revision of the configuration changes this run was begun at. */
  readonly revision: number;
  /** Begun after a configuration change the run before it had not seen. */
  readonly afterChange: boolean;
  /** Settles once the analyses of the configuration are in (not the proxies' measurements). */
  readonly configIn: Promise<void>;
}

/** Each part as the report's sources and late parts name it. */
export const PART: Record<keyof Parts, string> = {
  logs: 'istio-proxy logs',
  timelines: 'timelines analysis',
  scoping: 'scoping analysis',
  incidents: 'incidents analysis',
  ambient: 'ambient readiness',
};

/** The small lists every report is made of, besides the pods. */
export type Lists = [
  Awaited<ReturnType<typeof listNamespaces>>,
  Awaited<ReturnType<typeof listServices>>,
  Awaited<ReturnType<typeof listIstioConfig>>,
  string,
  Awaited<ReturnType<typeof listGatewaysForRoutes>>,
  /** The Nodes (unknown: why they could not be read). */
  { items: unknown[]; unknown: string | null },
  /** The other kinds the rules read (RULE_INPUT_KINDS). */
  KindLists,
];

/** The kinds every report lists itself (makeBase's lists). */
const BASE_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'Pod',
  'Service',
  'Sidecar',
  'DestinationRule',
  'VirtualService',
  'ServiceEntry',
  'Gateway',
  'Node',
]);
/** The kinds the analyzer rules read beyond the base lists: listed for them (listKinds). */
export const RULE_INPUT_KINDS: readonly string[] = [...RULE_KINDS].filter(
  (k) => !BASE_KINDS.has(k),
);
/**
 * The kinds whose changes the Findings screen hears as they happen (ConfigChanges): what the
 * report lists, but Pods and Nodes (they change all the time: the report's cache time covers
 * them), Secrets (not read) and CRDs (megabytes of schema per object); Gateway API's Gateways
 * beside Istio's.
 */
const NOT_FOLLOWED: ReadonlySet<string> = new Set([
  'Pod',
  'Node',
  'Secret',
  'CustomResourceDefinition',
]);
export const CHANGE_KINDS: readonly string[] = [
  ...[...BASE_KINDS, ...RULE_INPUT_KINDS].filter((k) => !NOT_FOLLOWED.has(k)),
  'gateway.networking.k8s.io/Gateway',
  // read by the ambient analysis
  'PeerAuthentication',
];

/** Kinds read in Istio's root namespace only: the mesh config and the injector's ConfigMaps. */
export const ruleInputNamespace =
  (root: string) =>
  (kind: string): string | undefined =>
    kind === 'ConfigMap' ? root : undefined;

/** Every rule input unknown, for one reason (the deadline passed before they were read). */
export function unreadRuleInputs(why: string): KindLists {
  return {
    items: {},
    unknown: Object.fromEntries(RULE_INPUT_KINDS.map((k) => [k, why])),
    declined: {},
    notInstalled: [],
    namespaceOnly: {},
  };
}

/** The screened objects and the inventory made of them, from the lists and the pods. */
export function makeBase(
  rt: ClusterRuntime,
  [namespaces, serviceList, istio, rootNamespace, gateways, nodes, ruleInputs]: Lists,
  pods: unknown[],
  podsPartial: string | null,
): Base {
  // One malformed object is a finding (MDX0002), never a failed report: screen before use.
  const screened = screenLists(
    {
      Namespace: [...namespaces.items, ...namespaces.rejected],
      Pod: pods,
      Service: [...serviceList.items, ...serviceList.rejected],
      Sidecar: istio.sidecars,
      DestinationRule: istio.destinationRules,
      VirtualService: istio.virtualServices,
      ServiceEntry: istio.serviceEntries,
      Gateway: gateways.items,
      Node: nodes.items,
      ...ruleInputs.items,
    },
    {
      gatewaysUnknown: gateways.unknown,
      nodesUnknown: nodes.unknown,
      kindsUnknown: { ...ruleInputs.declined, ...ruleInputs.unknown },
    },
  );
  const inv = buildInventory({
    namespaces: screened.namespaces,
    pods: screened.pods,
    services: screened.services,
    sidecars: screened.sidecars,
    destinationRules: screened.destinationRules.length,
    virtualServices: screened.virtualServices.length,
    serviceEntries: screened.serviceEntries.length,
    rootNamespace,
    now: rt.transport.clusterNow(),
  });
  return {
    podsPartial,
    screened,
    ruleInputs,
    services: serviceList.items.length,
    inv,
    root: inv.rootNamespace,
  };
}

/** What every report has: the screened objects and the inventory made of them. */
export interface Base {
  /** While the first pod list runs: how far it got (the pods are those read so far). */
  podsPartial: string | null;
  screened: ReturnType<typeof screenLists>;
  /** What the rules' own kinds gave (read, not installed, unknown). */
  ruleInputs: KindLists;
  services: number;
  inv: ReturnType<typeof buildInventory>;
  root: string;
}

const RUNNING: Outcome<never> = { ok: false, error: 'still running' };

/** `1 node`, `3 nodes`. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The report of the parts in: config findings always, each analysis once it is in. */
export function assemble(
  rt: ClusterRuntime,
  { podsPartial, screened, ruleInputs, services, inv, root }: Base,
  parts: Parts,
  late: readonly LatePart[],
): FindingsReport {
  const logsR = parts.logs ?? RUNNING;
  const timelinesR = parts.timelines ?? RUNNING;
  const scopingR = parts.scoping ?? RUNNING;
  const incidentsR = parts.incidents ?? RUNNING;
  const ambientR = parts.ambient ?? RUNNING;
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
  // the galley.istio.io/analyze-suppress and kiali.io/ignore-validations annotations silence a
  // finding here as in the CLI
  const silenced = applySuppressions(all, [], annotationIndex(suppressibleObjects(screened)));
  // one severity per finding: the one its group gives it (exposure without harm is info)
  // judged against the cluster's istiod (its image tag): a finding of a code not for it is
  // listed apart, in no count
  const judged = judgeByIstiod(
    withHarmSeverity(silenced.kept),
    istiodOfScreened(
      screened,
      podsPartial
        ? `no istiod among the pods read so far (${podsPartial})`
        : 'no istiod Pod or Deployment among the objects read (a cluster of an external control plane runs none)',
    ),
  );
  const findings = judged.findings;
  const notChecked = codesNotChecked(screened);
  return {
    generatedAt: new Date().toISOString(),
    catalog: [...ALL_CATALOG],
    findings,
    istiod: judged.istiod,
    groups: groupFindings(findings, {
      rootNamespace: root,
      istioNamespace: rt.settings.MESHDX_ISTIO_NAMESPACE,
      ...(timelines.ok ? timelines.hold : {}),
    }),
    sources: [
      podsPartial
        ? { name: 'pods', ok: false, detail: podsPartial }
        : { name: 'pods', ok: true, detail: `${screened.pods.length} pods` },
      { name: 'services', ok: true, detail: `${services} services` },
      screened.nodesUnknown === null
        ? { name: 'nodes', ok: true, detail: counted(screened.nodes.length, 'node') }
        : {
            name: 'nodes',
            ok: false,
            detail: `${screened.nodesUnknown}: DestinationRule subsets that select by node labels (zone, region, hostname) are not checked`,
          },
      screened.gatewaysUnknown === null
        ? { name: 'gateways', ok: true, detail: counted(screened.gateways.length, 'Gateway') }
        : {
            name: 'gateways',
            ok: false,
            detail: `${screened.gatewaysUnknown}: the gateways VirtualServices name are not checked (IST0101, IST0132)`,
          },
      ruleInputsSource(screened, ruleInputs),
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
    ...(notChecked.length > 0 ? { notChecked } : {}),
    ...(late.length > 0 ? { late: [...late] } : {}),
    ...(silenced.suppressed > 0
      ? { suppressed: { count: silenced.suppressed, by: silenced.counts } }
      : {}),
  };
}

/**
 * The rules' own kinds as a source: how many of each were read, which are not installed, and
 * for a kind that could not be read, why and which rules were not run for it.
 */
function ruleInputsSource(screened: Screened, r: KindLists): Source {
  const read = Object.entries(r.items)
    .filter(([k]) => !r.notInstalled.includes(k))
    .map(
      ([k, items]) =>
        `${k} ${items.length}${r.namespaceOnly[k] ? ` (in ${r.namespaceOnly[k]})` : ''}`,
    );
  const parts = [
    read.length > 0 ? `read: ${read.join(', ')}` : '',
    r.notInstalled.length > 0 ? `not installed: ${r.notInstalled.join(', ')}` : '',
  ].filter((x) => x !== '');
  const notRun = rulesNotRun(screened);
  // the rules not run for these kinds, each with its codes (a code may have other checks too)
  const codesFor = (kinds: readonly string[]) =>
    notRun
      .filter((n) => n.unread.some((u) => kinds.includes(u.kind)))
      .map((n) => `${n.rule} (${n.codes.join(', ')})`);
  const declined = Object.entries(r.declined).map(([k, w]) => {
    const codes = codesFor([k]);
    return `${k} not read: ${w}${codes.length > 0 ? `: not run ${codes.join(', ')}` : ''}`;
  });
  const unknown = Object.entries(r.unknown);
  if (unknown.length === 0)
    return {
      name: 'rule inputs',
      ok: true,
      detail: [...parts, ...declined].join('; ') || 'no other kind read',
    };
  const why = unknown.map(([k, w]) => `${k} (${w})`).join('; ');
  const codes = codesFor(unknown.map(([k]) => k));
  return {
    name: 'rule inputs',
    ok: false,
    detail: [
      `not read: ${why}${codes.length > 0 ? `: not run ${codes.join(', ')}` : ''}`,
      ...parts,
      ...declined,
    ].join('; '),
  };
}
