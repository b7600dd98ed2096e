import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import type { KubeObject, OwnerReference, Pod } from '../../../../lib/kube/types';
import type { PodTemplate } from './podspec';
import type { WorkloadStartupMode, WorkloadSpec } from './workload';
import { asJsonObject } from '../../../../lib/json-object';

/**
 * The Deployment and ReplicaSet objects behind the world's pods, as kube-controller-manager keeps
 * them: one Deployment per workload, one ReplicaSet per pod template (pod-template-hash), owner
 * references from pod to ReplicaSet to Deployment, and replica counts that follow the pods.
 */

/**
 * A uid derived from a name, so that adding controllers does not move the scenario's seeded ids;
 * with the start's salt (ScenarioContext.uidSalt), a restarted simulator's objects are new ones.
 */
export function stableUid(seed: string, salt = ''): string {
  const h = createHash('sha1').update(salt).update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The pod template as a Deployment carries it (no pod-template-hash) or a ReplicaSet (with). */
export function templateObject(tpl: PodTemplate, withHash: boolean): Record<string, unknown> {
  const labels = { ...tpl.labels };
  if (!withHash) delete labels['pod-template-hash'];
  return { metadata: { labels, annotations: { ...tpl.annotations } }, spec: tpl.spec };
}

/** Key-order independent JSON, to tell whether a template changed. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v as Record<string, unknown>).sort();
    return `{${keys
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export interface ReplicaCounts {
  replicas: number;
  ready: number;
  /** Pods not being deleted (what a ReplicaSet still wants). */
  active: number;
}

export function countPods(pods: readonly Pod[]): ReplicaCounts {
  let ready = 0;
  let active = 0;
  for (const p of pods) {
    const r = p.status?.conditions?.find((c) => c.type === 'Ready');
    if (r?.status === 'True') ready += 1;
    if (p.metadata.deletionTimestamp === undefined) active += 1;
  }
  return { replicas: pods.length, ready, active };
}

/** An owner reference as controllers write it (controller and blockOwnerDeletion set). */
export function controllerRef(kind: string, name: string, uid: string): OwnerReference {
  const ref = {
    apiVersion: 'apps/v1',
    kind,
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  return ref;
}

export interface ReplicaSetArgs {
  namespace: string;
  name: string;
  uid: string;
  deploymentName: string;
  deploymentUid: string;
  tpl: PodTemplate;
  desired: number;
  revision: number;
  created: string;
  counts: ReplicaCounts;
}

export function replicaSetObject(a: ReplicaSetArgs): KubeObject {
  const template = templateObject(a.tpl, true);
  const app = a.tpl.labels.app;
  const selector = { app, 'pod-template-hash': a.tpl.labels['pod-template-hash'] };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: a.name,
      namespace: a.namespace,
      uid: a.uid,
      creationTimestamp: a.created,
      labels: (template.metadata as { labels: Record<string, string> }).labels,
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(a.desired),
        'deployment.kubernetes.io/revision': String(a.revision),
      },
      ownerReferences: [controllerRef('Deployment', a.deploymentName, a.deploymentUid)],
    },
    spec: { replicas: a.counts.active, selector: { matchLabels: selector }, template },
    status: {
      replicas: a.counts.replicas,
      fullyLabeledReplicas: a.counts.replicas,
      readyReplicas: a.counts.ready,
      availableReplicas: a.counts.ready,
      observedGeneration: 1,
    },
  } as KubeObject;
}

export interface DeploymentStatusArgs {
  generation: number;
  total: ReplicaCounts;
  updated: ReplicaCounts;
  desired: number;
}

export function deploymentStatus(a: DeploymentStatusArgs): Record<string, unknown> {
  const available = a.total.ready;
  return {
    observedGeneration: a.generation,
    replicas: a.total.replicas,
    updatedReplicas: a.updated.replicas,
    readyReplicas: a.total.ready,
    availableReplicas: available,
    ...(a.desired > available ? { unavailableReplicas: a.desired - available } : {}),
    conditions: [
      {
        type: 'Available',
        status: available >= Math.max(1, a.desired - Math.floor(a.desired / 4)) ? 'True' : 'False',
        reason: 'MinimumReplicasAvailable',
      },
      {
        type: 'Progressing',
        status: 'True',
        reason: a.updated.ready >= a.desired ? 'NewReplicaSetAvailable' : 'ReplicaSetUpdated',
      },
    ],
  };
}

export function deploymentObject(
  namespace: string,
  name: string,
  uid: string,
  created: string,
  spec: WorkloadSpec,
  tpl: PodTemplate,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      uid,
      creationTimestamp: created,
      generation: 1,
      labels: { app: tpl.labels.app ?? name },
      annotations: { 'deployment.kubernetes.io/revision': '1' },
    },
    spec: {
      replicas: spec.replicas,
      selector: { matchLabels: { app: tpl.labels.app ?? name } },
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      template: templateObject(tpl, false),
    },
  } as KubeObject;
}

const record = (v: unknown): Record<string, unknown> => asJsonObject(v) ?? {};
const strings = (v: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries(record(v)).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

/** proxy.istio.io/config is YAML (or JSON, a subset) of a ProxyConfig; undefined if unreadable. */
function proxyConfigOf(v: string | undefined): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  try {
    const parsed: unknown = parseYaml(v);
    return asJsonObject(parsed) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a new pod template (from `kubectl patch` or `apply` of the Deployment) changes in the
 * workload the world simulates: annotations and labels as given, the app image, and what the
 * injector would make of proxy.istio.io/config (holdApplicationUntilProxyStarts) and
 * sidecar.istio.io/nativeSidecar, which change the pods' start order.
 */
export function changeFromTemplate(
  spec: WorkloadSpec,
  tpl: PodTemplate,
  template: unknown,
): Partial<WorkloadSpec> {
  const meta = record(record(template).metadata);
  const annotations = strings(meta.annotations);
  const labels = strings(meta.labels);
  const change: Partial<WorkloadSpec> = {};
  const userAnn: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.annotations ?? {})) {
    if (k in annotations) userAnn[k] = v;
  }
  for (const [k, v] of Object.entries(annotations)) {
    if (tpl.annotations[k] !== v) userAnn[k] = v;
  }
  change.annotations = userAnn;
  const userLabels: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.labels ?? {})) if (k in labels) userLabels[k] = v;
  for (const [k, v] of Object.entries(labels)) {
    if (k !== 'pod-template-hash' && tpl.labels[k] !== v) userLabels[k] = v;
  }
  change.labels = userLabels;
  if (labels.version !== undefined && labels.version !== (spec.version ?? 'v1')) {
    change.version = labels.version;
  }
  const containers = record(record(template).spec).containers;
  if (Array.isArray(containers)) {
    const app = containers.map(record).find((c) => c.name === tpl.appContainer);
    const image = app?.image;
    const was = tpl.spec.containers.find((c) => c.name === tpl.appContainer)?.image;
    if (typeof image === 'string' && image !== was) change.image = image;
  }
  const mode: WorkloadStartupMode = spec.mode ?? 'classic';
  const cfg = proxyConfigOf(annotations['proxy.istio.io/config']);
  if (
    cfg !== undefined &&
    annotations['proxy.istio.io/config'] !== tpl.annotations['proxy.istio.io/config']
  ) {
    change.proxyConfig = cfg;
    const hold = cfg.holdApplicationUntilProxyStarts;
    if (hold === true && (mode === 'classic' || mode === 'wrapper'))
      change.mode = 'hold-annotation';
    if (hold !== true && mode === 'hold-annotation') change.mode = 'classic';
  }
  const native = annotations['sidecar.istio.io/nativeSidecar'];
  if (native === 'true' && mode !== 'native' && mode !== 'none' && mode !== 'gateway') {
    change.mode = 'native';
  }
  if (native === 'false' && mode === 'native') change.mode = 'classic';
  if (change.mode === 'hold-annotation' || change.mode === 'native') change.race = false;
  return change;
}

/**
 * The workload a Deployment created through the API stands for: its first container as the
 * app (name, image, ports), its template's labels and annotations, injected with a classic
 * sidecar when its namespace has istio-injection=enabled (and the pod does not opt out).
 */
export function workloadFromDeployment(
  name: string,
  spec: unknown,
  injectedNamespace: boolean,
): WorkloadSpec | undefined {
  const s = record(spec);
  const template = record(s.template);
  const meta = record(template.metadata);
  const containers = record(template.spec).containers;
  const first = Array.isArray(containers) ? record(containers[0]) : undefined;
  if (first === undefined || typeof first.name !== 'string') return undefined;
  const annotations = strings(meta.annotations);
  const ports = (Array.isArray(first.ports) ? first.ports : [])
    .map(record)
    .filter((p) => typeof p.containerPort === 'number')
    .map((p) => ({
      containerPort: p.containerPort as number,
      ...(typeof p.name === 'string' ? { name: p.name } : {}),
    }));
  const injected = injectedNamespace && annotations['sidecar.istio.io/inject'] !== 'false';
  const w: WorkloadSpec = {
    name,
    replicas: typeof s.replicas === 'number' ? s.replicas : 1,
    mode: injected ? 'classic' : 'none',
    containerName: first.name,
    labels: strings(meta.labels),
    annotations,
  };
  if (typeof first.image === 'string') w.image = first.image;
  if (ports.length > 0) w.ports = ports;
  return w;
}
