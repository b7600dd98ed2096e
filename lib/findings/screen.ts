/**
 * The object boundary of every check: objects as they come from a file or the API server are
 * `unknown` until screened. A malformed object (no spec, a field of the wrong type) becomes an
 * MDX0002 finding naming the object and what is wrong, and is left out of the checks; the rest
 * go on, typed.
 */
import type {
  DestinationRule,
  KubeObject,
  Namespace,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../kube/types';
import { PLATFORM } from './codes';
import type { Finding } from './types';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

/** Kinds whose pod template meshdx reads (a Deployment's pods-to-be). */
const TEMPLATE_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'CronJob',
]);

const CLUSTER_SCOPED: ReadonlySet<string> = new Set([
  'Namespace',
  'Node',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
]);

export interface NodeInfo {
  name: string;
  labels: Record<string, string>;
}

export interface Screened {
  namespaces: Namespace[];
  pods: Pod[];
  /** Pod templates of Deployments, StatefulSets... as pods owned by their workload. */
  templates: Pod[];
  services: Service[];
  sidecars: Sidecar[];
  destinationRules: DestinationRule[];
  virtualServices: VirtualService[];
  serviceEntries: ServiceEntry[];
  nodes: NodeInfo[];
  /** Objects of kinds no check reads. */
  others: number;
  /** MDX0002, one per malformed object. */
  findings: Finding[];
}

export interface ScreenOptions {
  /** Namespace of namespaced objects that name none (a manifest applied with kubectl). */
  defaultNamespace?: string;
  /** Where each object came from (file:line), by index, for the evidence. */
  origins?: readonly (string | undefined)[];
}

/** Problems of a string map (labels, annotations, selectors) at `path`. */
function stringMap(v: unknown, path: string, out: string[]): void {
  if (v === undefined || v === null) return;
  if (!isObj(v)) {
    out.push(`${path} is not a map`);
    return;
  }
  for (const [k, x] of Object.entries(v)) {
    if (!isStr(x)) out.push(`${path}.${k} is not a string`);
  }
}

function optArray(v: unknown, path: string, out: string[]): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    out.push(`${path} is not a list`);
    return [];
  }
  return v;
}

function containers(v: unknown, path: string, out: string[], required: boolean): void {
  if (required && (v === undefined || v === null)) {
    out.push(`${path} is missing`);
    return;
  }
  optArray(v, path, out).forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!isObj(c)) {
      out.push(`${p} is not an object`);
      return;
    }
    if (!isStr(c.name) || c.name === '') out.push(`${p}.name is missing`);
    optArray(c.ports, `${p}.ports`, out).forEach((cp, j) => {
      if (!isObj(cp) || typeof cp.containerPort !== 'number') {
        out.push(`${p}.ports[${j}].containerPort is not a number`);
      }
    });
    optArray(c.env, `${p}.env`, out).forEach((e, j) => {
      if (!isObj(e) || !isStr(e.name)) out.push(`${p}.env[${j}].name is missing`);
    });
  });
}

function podSpec(v: unknown, path: string, out: string[]): void {
  if (!isObj(v)) {
    out.push(v === undefined ? `${path} is missing` : `${path} is not an object`);
    return;
  }
  containers(v.containers, `${path}.containers`, out, true);
  containers(v.initContainers, `${path}.initContainers`, out, false);
  if (v.nodeName !== undefined && !isStr(v.nodeName)) out.push(`${path}.nodeName is not a string`);
}

function metaProblems(meta: unknown, out: string[]): void {
  if (!isObj(meta)) {
    out.push('metadata is missing');
    return;
  }
  if (!isStr(meta.name) || meta.name === '') out.push('metadata.name is missing');
  if (meta.namespace !== undefined && !isStr(meta.namespace)) {
    out.push('metadata.namespace is not a string');
  }
  stringMap(meta.labels, 'metadata.labels', out);
  stringMap(meta.annotations, 'metadata.annotations', out);
  optArray(meta.ownerReferences, 'metadata.ownerReferences', out).forEach((o, i) => {
    if (!isObj(o) || !isStr(o.kind) || !isStr(o.name)) {
      out.push(`metadata.ownerReferences[${i}] has no kind and name`);
    }
  });
}

function specObject(o: Obj, out: string[]): Obj {
  if (!isObj(o.spec)) {
    out.push(o.spec === undefined ? 'spec is missing' : 'spec is not an object');
    return {};
  }
  return o.spec;
}

function stringList(v: unknown, path: string, out: string[]): void {
  optArray(v, path, out).forEach((h, i) => {
    if (!isStr(h)) out.push(`${path}[${i}] is not a string`);
  });
}

function destinations(routes: unknown, path: string, out: string[]): void {
  optArray(routes, path, out).forEach((r, i) => {
    if (!isObj(r)) {
      out.push(`${path}[${i}] is not an object`);
      return;
    }
    optArray(r.route, `${path}[${i}].route`, out).forEach((d, j) => {
      const dest = isObj(d) ? d.destination : undefined;
      if (!isObj(dest) || !isStr(dest.host) || dest.host === '') {
        out.push(`${path}[${i}].route[${j}].destination.host is missing`);
      }
    });
    if (r.mirror !== undefined && (!isObj(r.mirror) || !isStr(r.mirror.host))) {
      out.push(`${path}[${i}].mirror.host is missing`);
    }
  });
}

/** What is wrong with an object of a kind meshdx checks; [] when it can be read. */
export function objectProblems(o: Obj): string[] {
  const out: string[] = [];
  metaProblems(o.metadata, out);
  const kind = o.kind;
  if (kind === 'Pod') podSpec(o.spec, 'spec', out);
  else if (kind === 'Service') {
    const spec = specObject(o, out);
    stringMap(spec.selector, 'spec.selector', out);
    if (spec.type !== undefined && !isStr(spec.type)) out.push('spec.type is not a string');
    optArray(spec.ports, 'spec.ports', out).forEach((p, i) => {
      if (!isObj(p)) out.push(`spec.ports[${i}] is not an object`);
      else if (typeof p.port !== 'number' || !Number.isInteger(p.port)) {
        out.push(`spec.ports[${i}].port is not a number`);
      } else if (p.name !== undefined && !isStr(p.name)) {
        out.push(`spec.ports[${i}].name is not a string`);
      }
    });
  } else if (kind === 'Sidecar') {
    const spec = specObject(o, out);
    if (spec.workloadSelector !== undefined) {
      const ws = spec.workloadSelector;
      if (!isObj(ws)) out.push('spec.workloadSelector is not an object');
      else stringMap(ws.labels, 'spec.workloadSelector.labels', out);
    }
    optArray(spec.egress, 'spec.egress', out).forEach((e, i) => {
      if (!isObj(e)) out.push(`spec.egress[${i}] is not an object`);
      else stringList(e.hosts, `spec.egress[${i}].hosts`, out);
    });
  } else if (kind === 'DestinationRule') {
    const spec = specObject(o, out);
    if (!isStr(spec.host) || spec.host === '') out.push('spec.host is missing');
    optArray(spec.subsets, 'spec.subsets', out).forEach((s, i) => {
      if (!isObj(s) || !isStr(s.name)) out.push(`spec.subsets[${i}].name is missing`);
      else stringMap(s.labels, `spec.subsets[${i}].labels`, out);
    });
    stringList(spec.exportTo, 'spec.exportTo', out);
  } else if (kind === 'VirtualService') {
    const spec = specObject(o, out);
    stringList(spec.hosts, 'spec.hosts', out);
    stringList(spec.gateways, 'spec.gateways', out);
    stringList(spec.exportTo, 'spec.exportTo', out);
    destinations(spec.http, 'spec.http', out);
    destinations(spec.tcp, 'spec.tcp', out);
    destinations(spec.tls, 'spec.tls', out);
  } else if (kind === 'ServiceEntry') {
    const spec = specObject(o, out);
    if (!Array.isArray(spec.hosts)) out.push('spec.hosts is missing');
    else stringList(spec.hosts, 'spec.hosts', out);
    stringList(spec.exportTo, 'spec.exportTo', out);
    if (spec.workloadSelector !== undefined) {
      const ws = spec.workloadSelector;
      if (!isObj(ws)) out.push('spec.workloadSelector is not an object');
      else stringMap(ws.labels, 'spec.workloadSelector.labels', out);
    }
  } else if (isStr(kind) && TEMPLATE_KINDS.has(kind)) {
    const spec = specObject(o, out);
    const tpl = kind === 'CronJob' ? jobTemplate(spec) : spec.template;
    if (!isObj(tpl))
      out.push(`${kind === 'CronJob' ? 'spec.jobTemplate.spec' : 'spec'}.template is missing`);
    else {
      if (tpl.metadata !== undefined) {
        if (!isObj(tpl.metadata)) out.push('spec.template.metadata is not an object');
        else {
          stringMap(tpl.metadata.labels, 'spec.template.metadata.labels', out);
          stringMap(tpl.metadata.annotations, 'spec.template.metadata.annotations', out);
        }
      }
      podSpec(tpl.spec, 'spec.template.spec', out);
    }
  }
  return out;
}

function jobTemplate(spec: Obj): unknown {
  const jt = spec.jobTemplate;
  if (!isObj(jt) || !isObj(jt.spec)) return undefined;
  return jt.spec.template;
}

function templatePod(o: Obj, ns: string): Pod {
  const meta = o.metadata as Obj;
  const spec = o.spec as Obj;
  const tpl = (o.kind === 'CronJob' ? jobTemplate(spec) : spec.template) as Obj;
  const tmeta = isObj(tpl.metadata) ? tpl.metadata : {};
  const name = meta.name as string;
  return {
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      labels: tmeta.labels as Record<string, string> | undefined,
      annotations: tmeta.annotations as Record<string, string> | undefined,
      ownerReferences: [{ kind: o.kind as string, name, controller: true }],
    },
    spec: tpl.spec as Pod['spec'],
  };
}

const CHECKED_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'Pod',
  'Service',
  'Sidecar',
  'DestinationRule',
  'VirtualService',
  'ServiceEntry',
  'Node',
  ...TEMPLATE_KINDS,
]);

/** Sort objects by kind into typed lists; malformed ones become MDX0002 findings. */
export function screenObjects(objects: readonly unknown[], opts: ScreenOptions = {}): Screened {
  const s: Screened = {
    namespaces: [],
    pods: [],
    templates: [],
    services: [],
    sidecars: [],
    destinationRules: [],
    virtualServices: [],
    serviceEntries: [],
    nodes: [],
    others: 0,
    findings: [],
  };
  objects.forEach((raw, index) => {
    const origin = opts.origins?.[index];
    if (!isObj(raw) || !isStr(raw.kind) || raw.kind === '') {
      s.findings.push(malformed(raw, index, ['kind is missing'], origin));
      return;
    }
    if (!CHECKED_KINDS.has(raw.kind)) {
      s.others += 1;
      return;
    }
    const problems = objectProblems(raw);
    if (problems.length > 0) {
      s.findings.push(malformed(raw, index, problems, origin));
      return;
    }
    const meta = raw.metadata as Obj;
    const clusterScoped = CLUSTER_SCOPED.has(raw.kind);
    const ns = clusterScoped
      ? undefined
      : ((meta.namespace as string | undefined) ?? opts.defaultNamespace);
    const o = (
      ns === meta.namespace ? raw : { ...raw, metadata: { ...meta, namespace: ns } }
    ) as unknown;
    switch (raw.kind) {
      case 'Namespace':
        s.namespaces.push(o as Namespace);
        break;
      case 'Pod':
        s.pods.push(o as Pod);
        break;
      case 'Service':
        s.services.push(o as Service);
        break;
      case 'Sidecar':
        s.sidecars.push(o as Sidecar);
        break;
      case 'DestinationRule':
        s.destinationRules.push(o as DestinationRule);
        break;
      case 'VirtualService':
        s.virtualServices.push(o as VirtualService);
        break;
      case 'ServiceEntry':
        s.serviceEntries.push(o as ServiceEntry);
        break;
      case 'Node':
        s.nodes.push({
          name: meta.name as string,
          labels: (meta.labels as Record<string, string> | undefined) ?? {},
        });
        break;
      default:
        s.templates.push(templatePod(raw, ns ?? 'default'));
    }
  });
  return s;
}

function malformed(raw: unknown, index: number, problems: string[], origin?: string): Finding {
  const o = isObj(raw) ? raw : {};
  const meta = isObj(o.metadata) ? o.metadata : {};
  const kind = isStr(o.kind) && o.kind !== '' ? o.kind : 'Unknown';
  const name = isStr(meta.name) && meta.name !== '' ? meta.name : `(object #${index + 1})`;
  const subject: Finding['subject'] = { kind, name };
  if (isStr(meta.namespace)) subject.namespace = meta.namespace;
  return {
    code: PLATFORM.code.malformedObject,
    severity: PLATFORM.byKey.malformedObject.severity,
    subject,
    evidence: {
      problem: problems[0] ?? 'unreadable',
      problems: problems.length,
      all: problems.slice(0, 8).join('; '),
      origin: origin ?? null,
    },
    fix: {
      why: `Correct the object where it is defined (${problems[0] ?? 'unreadable'}); meshdx left it out of every check.`,
    },
  };
}

/** KubeObject identity for messages. */
export function refOf(o: KubeObject): string {
  return `${o.kind ?? 'Object'} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
}

/**
 * Screen lists as the API server returns them (items carry no `kind`): each item gets the kind
 * of its list before screening.
 */
export function screenLists(
  lists: Readonly<Record<string, readonly unknown[]>>,
  opts: ScreenOptions = {},
): Screened {
  const all: unknown[] = [];
  for (const [kind, items] of Object.entries(lists)) {
    for (const item of items)
      all.push(isObj(item) && item.kind === undefined ? { ...item, kind } : item);
  }
  return screenObjects(all, opts);
}
