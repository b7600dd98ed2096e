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
import type { IstioConfig } from '../kube/istio-config';
import { PLATFORM } from './codes';
import type { Finding } from './types';

import {
  isObj,
  isStr,
  jobTemplate,
  metadataProblems,
  objectProblems,
  TEMPLATE_KINDS,
  type Obj,
} from './object-shape';
import { objectKey } from '../refs/object-ref';
import { screenGateway, type ScreenedGateway } from './gateway-hosts';

export { objectProblems };

/**
 * The kinds that have no namespace, among those a manifest or istioctl's analyze output names
 * (an object of any other kind is namespaced; MeshConfig is istioctl's name for the mesh config).
 */
export const CLUSTER_SCOPED_KINDS: ReadonlySet<string> = new Set([
  'Namespace',
  'Node',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'CustomResourceDefinition',
  'ClusterRole',
  'ClusterRoleBinding',
  'MeshConfig',
]);

/**
 * A pod known by its metadata only (istioctl's test inputs and trimmed manifests give pods so):
 * selectors match its labels; checks that read the pod's spec leave it out.
 */
export interface LabelledPod {
  kind: 'Pod';
  metadata: Pod['metadata'];
}

export interface NodeInfo {
  name: string;
  labels: Record<string, string>;
}

/** Objects sorted by kind, each of the shape its kind requires. */
export interface Screened extends Pick<
  IstioConfig,
  'namespaces' | 'services' | 'sidecars' | 'destinationRules' | 'virtualServices' | 'serviceEntries'
> {
  pods: Pod[];
  /** Pods whose spec cannot be read but whose labels can: used where only labels matter. */
  labelledPods: LabelledPod[];
  /** Every Gateway (Istio's and Gateway API's) with the hosts it serves, for references to them. */
  gateways: ScreenedGateway[];
  /** Why the Gateways could not all be read (the cluster's lists): no gateway is then missing. */
  gatewaysUnknown: string | null;
  /** Pod templates of Deployments, StatefulSets... as pods owned by their workload. */
  templates: Pod[];
  nodes: NodeInfo[];
  /** Why the Nodes could not be read (the cluster's list): subsets by node labels unchecked. */
  nodesUnknown: string | null;
  /**
   * Kinds that could not be read, and why (RBAC, a failing API server, the deadline): a rule
   * that reads one is not run, since what it would say of an absent object is not known.
   */
  kindsUnknown: Readonly<Record<string, string>>;
  /** Objects of kinds no check reads. */
  others: number;
  /**
   * Every object with a kind and readable metadata, of any kind, namespace defaulted (cluster-
   * scoped kinds have none): what the analyzer rules read (lib/findings/rules).
   */
  objects: KubeObject[];
  /** MDX0002, one per malformed object; MDX0004, one per object used only in part. */
  findings: Finding[];
}

export interface ScreenOptions {
  /** Namespace of namespaced objects that name none (a manifest applied with kubectl). */
  defaultNamespace?: string;
  /** Where each object came from (file:line), by index, for the evidence. */
  origins?: readonly (string | undefined)[];
  /** The Gateways could not all be read (why): the gateway references are not checked. */
  gatewaysUnknown?: string | null;
  /** The Nodes could not be read (why): subsets that select by node labels are not checked. */
  nodesUnknown?: string | null;
  /** Kinds that could not be read, and why (Screened.kindsUnknown). */
  kindsUnknown?: Readonly<Record<string, string>>;
}

/** Problems of a string map (labels, annotations, selectors) at `path`. */

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

/** The kinds the screen itself reads (beyond the analyzer rules' own `reads`). */
export const CHECKED_KINDS: ReadonlySet<string> = new Set([
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
  const namespaces: Namespace[] = [];
  const services: Service[] = [];
  const sidecars: Sidecar[] = [];
  const destinationRules: DestinationRule[] = [];
  const virtualServices: VirtualService[] = [];
  const serviceEntries: ServiceEntry[] = [];
  const s: Screened = {
    namespaces,
    pods: [],
    labelledPods: [],
    gateways: [],
    gatewaysUnknown: opts.gatewaysUnknown ?? null,
    templates: [],
    services,
    sidecars,
    destinationRules,
    virtualServices,
    serviceEntries,
    nodes: [],
    nodesUnknown: opts.nodesUnknown ?? null,
    kindsUnknown: opts.kindsUnknown ?? {},
    others: 0,
    objects: [],
    findings: [],
  };
  objects.forEach((raw, index) => {
    const origin = opts.origins?.[index];
    if (!isObj(raw) || !isStr(raw.kind) || raw.kind === '') {
      s.findings.push(malformed(raw, index, ['kind is missing'], origin));
      return;
    }
    if (metadataProblems(raw).length === 0) s.objects.push(withNamespace(raw, opts));
    if (raw.kind === 'Gateway' && metadataProblems(raw).length === 0) {
      const meta = raw.metadata as Obj;
      const ns = (meta.namespace as string | undefined) ?? opts.defaultNamespace ?? 'default';
      s.gateways.push(screenGateway(raw, objectKey(ns, meta.name as string), ns));
      return;
    }
    if (!CHECKED_KINDS.has(raw.kind)) {
      s.others += 1;
      return;
    }
    const problems = objectProblems(raw);
    if (problems.length > 0) {
      if (raw.kind === 'Pod' && metadataProblems(raw).length === 0) {
        // labels still select it: keep it for selectors, and say what the other checks miss
        const meta = raw.metadata as Obj;
        const ns = (meta.namespace as string | undefined) ?? opts.defaultNamespace ?? 'default';
        s.labelledPods.push({
          kind: 'Pod',
          metadata: { ...(meta as unknown as Pod['metadata']), namespace: ns },
        });
        s.findings.push(incomplete(raw, problems, origin));
        return;
      }
      s.findings.push(malformed(raw, index, problems, origin));
      return;
    }
    const meta = raw.metadata as Obj;
    const clusterScoped = CLUSTER_SCOPED_KINDS.has(raw.kind);
    const ns = clusterScoped
      ? undefined
      : ((meta.namespace as string | undefined) ?? opts.defaultNamespace);
    const o = (
      ns === meta.namespace ? raw : { ...raw, metadata: { ...meta, namespace: ns } }
    ) as unknown;
    switch (raw.kind) {
      case 'Namespace':
        namespaces.push(o as Namespace);
        break;
      case 'Pod':
        s.pods.push(o as Pod);
        break;
      case 'Service':
        services.push(o as Service);
        break;
      case 'Sidecar':
        sidecars.push(o as Sidecar);
        break;
      case 'DestinationRule':
        destinationRules.push(o as DestinationRule);
        break;
      case 'VirtualService':
        virtualServices.push(o as VirtualService);
        break;
      case 'ServiceEntry':
        serviceEntries.push(o as ServiceEntry);
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

/** The object with the namespace a namespaced object without one is applied to. */
function withNamespace(raw: Obj, opts: ScreenOptions): KubeObject {
  const meta = raw.metadata as Obj;
  if (CLUSTER_SCOPED_KINDS.has(raw.kind as string) || isStr(meta.namespace)) {
    return raw as unknown as KubeObject;
  }
  const ns = opts.defaultNamespace ?? 'default';
  return { ...raw, metadata: { ...meta, namespace: ns } } as unknown as KubeObject;
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

function incomplete(raw: Obj, problems: string[], origin?: string): Finding {
  const meta = raw.metadata as Obj;
  const subject: Finding['subject'] = { kind: String(raw.kind), name: String(meta.name) };
  if (isStr(meta.namespace)) subject.namespace = meta.namespace;
  return {
    code: PLATFORM.code.incompleteObject,
    severity: PLATFORM.byKey.incompleteObject.severity,
    subject,
    evidence: {
      problem: problems[0] ?? 'unreadable',
      problems: problems.length,
      all: problems.slice(0, 8).join('; '),
      usedFor: 'selector matching (labels)',
      leftOutOf: 'injection, protocol selection and the other checks of its spec',
      origin: origin ?? null,
    },
  };
}

/**
 * The pods selectors are matched against: pods (whole, or known by their labels only), and the
 * pod templates of Deployments, StatefulSets, DaemonSets, Jobs and CronJobs in namespaces where
 * the input has no pod (a repository's manifests, a Helm or kustomize render): there the
 * templates are the pods to be.
 */
export function selectablePods(s: Screened): (LabelledPod | Pod)[] {
  const withPods = new Set(
    [...s.pods, ...s.labelledPods].map((p) => p.metadata.namespace ?? 'default'),
  );
  return [
    ...s.pods,
    ...s.labelledPods,
    ...s.templates.filter((t) => !withPods.has(t.metadata.namespace ?? 'default')),
  ];
}

/** Namespaces in the ambient mesh (istio.io/dataplane-mode=ambient, no sidecar injection label). */
export function ambientNamespaces(s: Screened): Set<string> {
  const out = new Set<string>();
  for (const n of s.namespaces) {
    const l = n.metadata.labels ?? {};
    if (l['istio-injection'] === 'enabled' || (l['istio.io/rev'] ?? '') !== '') continue;
    if (l['istio.io/dataplane-mode'] === 'ambient') out.add(n.metadata.name);
  }
  return out;
}

/** Every screened object a finding can be about, for their suppression annotations. */
export function suppressibleObjects(s: Screened): KubeObject[] {
  return [
    ...s.namespaces.map((o) => ({ ...o, kind: 'Namespace' })),
    ...s.pods.map((o) => ({ ...o, kind: 'Pod' })),
    ...s.labelledPods,
    ...s.services.map((o) => ({ ...o, kind: 'Service' })),
    ...s.sidecars.map((o) => ({ ...o, kind: 'Sidecar' })),
    ...s.destinationRules.map((o) => ({ ...o, kind: 'DestinationRule' })),
    ...s.virtualServices.map((o) => ({ ...o, kind: 'VirtualService' })),
    ...s.serviceEntries.map((o) => ({ ...o, kind: 'ServiceEntry' })),
  ];
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
