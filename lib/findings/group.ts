/**
 * Findings that say what matters first. Findings of one code become one group with the
 * affected objects inside it (their fixes differ only by the object they name: a port, a
 * workload); the fix is offered once, at the scope that fixes them
 * all (the mesh-wide holdApplicationUntilProxyStarts for a startup race on most workloads, a
 * mesh default Sidecar for many namespaces without one), with the per-object fixes for those
 * the scoped fix does not reach. Severity follows harm: an exposure nothing has suffered from
 * yet is `info` with a count; harm seen (restarts, failed probes, failed requests) keeps the
 * finding's severity, at least `warning`. Worst groups first. Pure.
 */
import type { FindingGroup, GroupObject } from '../api/findings';
import { catalogEntry } from './registry';
import { defaultSidecarYaml } from './sidecar-fix';
import {
  findingKey,
  severityRank,
  type Finding,
  type FindingFix,
  type FindingSubject,
  type Severity,
} from './types';
import { objectKey } from '../refs/object-ref';

export interface GroupContext {
  /** Meshed workloads in the mesh, and how many of them already hold the app for the proxy. */
  meshedWorkloads?: number;
  heldWorkloads?: number;
  /** Istio's root namespace, where mesh-wide defaults live. */
  rootNamespace?: string;
  /** Where the control plane runs (a generated Sidecar keeps it); default the root namespace. */
  istioNamespace?: string;
}

/** Codes that describe an exposure (a risk) rather than a failure by themselves. */
export const EXPOSURE_CODES: ReadonlySet<string> = new Set([
  'MDX0101', // app started before its sidecar was ready
  'MDX0105', // proxy stops before the app has finished
  'MDX0106', // shutdown needs more than the grace period
  'MDX0118', // native sidecar drains at the deletion while the app serves
  'MDX0301', // namespace without default Sidecar
  'MDX0503', // TCP only because of a well-known port
  'MDX0507', // external host through PassthroughCluster
  'IST0118', // port name not under the naming convention
]);

/** IST codes are istioctl analyze's: their severity is istioctl's, harm or not. */
const isIstioctlCode = (code: string): boolean => code.startsWith('IST');

/** Codes that are themselves observed harm (failed starts, failed requests). */
const HARM_CODES: ReadonlySet<string> = new Set([
  'MDX0102',
  'MDX0401',
  'MDX0402',
  'MDX0406',
  'MDX0407',
]);

/** Evidence counters that mean harm happened when above zero. */
const HARM_KEYS = [
  'restarts',
  'failedProbes',
  'probeFailures',
  'unhealthyEvents',
  'early5xx',
  'failedRequests',
  'failures',
  'errors',
] as const;

const RACE_CODES: ReadonlySet<string> = new Set(['MDX0101', 'MDX0102']);

export function isHarmed(f: Finding): boolean {
  if (HARM_CODES.has(f.code)) return true;
  return HARM_KEYS.some((k) => {
    const v = f.evidence[k];
    return typeof v === 'number' && v > 0;
  });
}

function worst(a: Severity, b: Severity): Severity {
  return severityRank(a) <= severityRank(b) ? a : b;
}

/** The severity of one object in its group: exposure without harm is info. */
function objectSeverity(f: Finding, harmed: boolean): Severity {
  if (!EXPOSURE_CODES.has(f.code) || isIstioctlCode(f.code)) return f.severity;
  if (!harmed) return 'info';
  // an app that raced and restarted is the classic failure: as bad as MDX0102
  if (RACE_CODES.has(f.code)) return 'error';
  return worst(f.severity, 'warning');
}

const fixId = (x: FindingFix | undefined): string =>
  x === undefined ? '' : `${x.why}\u0000${x.yaml ?? ''}`;

function scopeOfKind(kind: string): 'namespace' | 'workload' | 'object' {
  if (kind === 'Namespace') return 'namespace';
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'].includes(kind)) {
    return 'workload';
  }
  return 'object';
}

/** Members with the same fix, as `rest` entries (first-seen order). */
function restOf(members: readonly Finding[]): FindingGroup['rest'] {
  const by = new Map<string, { fix: FindingFix; subjects: FindingSubject[] }>();
  for (const m of members) {
    if (m.fix === undefined) continue;
    const id = fixId(m.fix);
    const e = by.get(id);
    const same = (x: FindingSubject) =>
      x.kind === m.subject.kind && x.namespace === m.subject.namespace && x.name === m.subject.name;
    if (e === undefined) by.set(id, { fix: m.fix, subjects: [m.subject] });
    else if (!e.subjects.some(same)) e.subjects.push(m.subject);
  }
  return [...by.values()];
}

const MESH_HOLD_YAML = (root: string) =>
  `# mesh-wide, in the istio ConfigMap (kubectl -n ${root} edit configmap istio),\n` +
  '# or meshConfig.defaultConfig in the IstioOperator / Helm values:\n' +
  'data:\n' +
  '  mesh: |-\n' +
  '    defaultConfig:\n' +
  '      holdApplicationUntilProxyStarts: true\n' +
  '# then restart the affected workloads (kubectl rollout restart) so the injector applies it\n';

/** Whether the mesh-wide setting is the fix: most workloads lack a hold. */
function mostLackHold(members: readonly Finding[], ctx: GroupContext): boolean {
  if (ctx.meshedWorkloads !== undefined && ctx.meshedWorkloads > 0) {
    const lacking = ctx.meshedWorkloads - (ctx.heldWorkloads ?? 0);
    return lacking * 2 > ctx.meshedWorkloads;
  }
  // without the mesh's numbers, every affected workload is known to lack a hold
  return new Set(members.map((m) => findingKey({ ...m, code: '' }))).size >= 2;
}

type Scoped = Pick<FindingGroup, 'fix' | 'rest'>;

function scopedFix(code: string, members: readonly Finding[], ctx: GroupContext): Scoped {
  const root = ctx.rootNamespace ?? 'istio-system';
  if (RACE_CODES.has(code) && mostLackHold(members, ctx)) {
    // a workload whose own proxy config overrides the mesh default needs its own patch
    const overriding = members.filter((m) => Boolean(m.evidence.holdIgnored));
    return {
      fix: {
        scope: 'mesh',
        why: 'Most workloads lack a hold: one mesh-wide setting makes every injected app wait until its proxy is ready (meshConfig.defaultConfig.holdApplicationUntilProxyStarts).',
        yaml: MESH_HOLD_YAML(root),
      },
      rest: restOf(overriding),
    };
  }
  if (code === 'MDX0301' && new Set(members.map((m) => m.subject.name)).size >= 2) {
    // a namespace seen calling others needs its own Sidecar as well: under the root default
    // alone its proxies would lose those hosts (503 NR)
    const calling = members.filter(
      (m) => typeof m.evidence.callsOut === 'string' && m.evidence.callsOut !== '',
    );
    return {
      fix: {
        scope: 'mesh',
        why:
          `A default Sidecar in the root namespace (${root}) narrows every namespace that has none of its own: each proxy keeps its own namespace and the control plane` +
          (calling.length > 0
            ? `. The ${calling.length === 1 ? 'namespace' : `${calling.length} namespaces`} below call${calling.length === 1 ? 's' : ''} others: apply ${calling.length === 1 ? 'its' : 'their'} own Sidecar with those hosts first.`
            : '; add the namespaces they call.'),
        yaml: defaultSidecarYaml(root, ctx.istioNamespace ?? root),
      },
      rest: restOf(calling),
    };
  }
  const rest = restOf(members);
  const only = rest.length === 1 ? rest[0] : undefined;
  if (only !== undefined && only.subjects.length === members.length) {
    const kinds = new Set(members.map((m) => scopeOfKind(m.subject.kind)));
    const scope = kinds.size === 1 ? ([...kinds][0] ?? 'object') : 'object';
    return { fix: { scope, ...only.fix }, rest: [] };
  }
  // no one change fixes them all: each object's own fix, objects with the same fix together
  return { rest };
}

/**
 * The finding's severity as its group judges it (exposure without harm is info; IST codes keep
 * istioctl's): the one severity a report's findings carry, so every list, chip and count that
 * reads a finding shows what its group shows. Applying it again changes nothing.
 */
export function harmSeverity(f: Finding): Severity {
  return objectSeverity(f, isHarmed(f));
}

/** The findings, each with the severity its group gives it (harmSeverity), order kept. */
export function withHarmSeverity<T extends Finding>(findings: readonly T[]): T[] {
  return findings.map((f) => {
    const severity = harmSeverity(f);
    return severity === f.severity ? f : { ...f, severity };
  });
}

function groupObject(f: Finding): GroupObject {
  const harmed = isHarmed(f);
  return {
    subject: f.subject,
    ...(f.part === undefined ? {} : { part: f.part }),
    severity: objectSeverity(f, harmed),
    harmed,
    evidence: f.evidence,
  };
}

/** Group findings by code; worst groups (then most harmed, then largest) first. */
export function groupFindings(
  findings: readonly Finding[],
  ctx: GroupContext = {},
): FindingGroup[] {
  const byKey = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = f.code;
    const l = byKey.get(key);
    if (l === undefined) byKey.set(key, [f]);
    else l.push(f);
  }
  const groups: FindingGroup[] = [];
  for (const [key, members] of byKey) {
    const first = members[0];
    if (first === undefined) continue;
    const objects = members
      .map(groupObject)
      .sort(
        (a, b) =>
          severityRank(a.severity) - severityRank(b.severity) ||
          Number(b.harmed) - Number(a.harmed) ||
          objectKey(a.subject.namespace ?? '', a.subject.name).localeCompare(
            objectKey(b.subject.namespace ?? '', b.subject.name),
          ),
      );
    const harmed = objects.filter((o) => o.harmed).length;
    const severity = objects.reduce<Severity>((s, o) => worst(s, o.severity), 'info');
    groups.push({
      key,
      code: first.code,
      title: catalogEntry(first.code)?.title ?? first.code,
      severity,
      harm: harmed > 0 ? 'observed' : 'exposure',
      count: objects.length,
      harmed,
      objects,
      ...scopedFix(first.code, members, ctx),
    });
  }
  return groups.sort(
    (a, b) =>
      severityRank(a.severity) - severityRank(b.severity) ||
      b.harmed - a.harmed ||
      b.harmed / b.count - a.harmed / a.count ||
      b.count - a.count ||
      a.code.localeCompare(b.code),
  );
}

/**
 * The groups narrowed to the objects `keep` accepts (a namespace filter), each narrowed one
 * recounted and its severity the worst of what is left; a group left with no object goes. The per-object fixes
 * keep the subjects `keep` accepts (a fix of another namespace is not shown); the scoped fix
 * stays the group's: it still fixes what is shown.
 */
export function narrowGroups(
  groups: readonly FindingGroup[],
  keep: (o: { subject: FindingSubject }) => boolean,
): FindingGroup[] {
  return groups
    .map((g) => {
      const objects = g.objects.filter(keep);
      // a group the filter keeps whole is the group as made
      if (objects.length === g.objects.length) return g;
      const harmed = objects.filter((o) => o.harmed).length;
      const rest = g.rest
        .map((r) => ({ ...r, subjects: r.subjects.filter((subject) => keep({ subject })) }))
        .filter((r) => r.subjects.length > 0);
      return {
        ...g,
        objects,
        severity: objects.reduce<Severity>((s, o) => worst(s, o.severity), 'info'),
        count: objects.length,
        harmed,
        harm: harmed > 0 ? ('observed' as const) : ('exposure' as const),
        rest,
      };
    })
    .filter((g) => g.count > 0);
}
