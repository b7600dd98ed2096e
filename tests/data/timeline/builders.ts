/** Small builders for hand-made pods in tests (not giant literals). Times are seconds after T0. */
import type { Container, ContainerStatus, KubeEvent, Pod } from '../../../lib/kube/types';

export const T0 = Date.parse('2024-05-01T10:00:00Z');
export const at = (s: number): string => new Date(T0 + s * 1000).toISOString();

export interface Run {
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason?: string;
}

export interface Ctr {
  name: string;
  startedAt?: number;
  ready?: boolean;
  restarts?: number;
  last?: Run;
  terminated?: Run;
  preStopSleep?: number;
  preStopExec?: string[];
  command?: string[];
  args?: string[];
  env?: Record<string, string>;
  /** initialDelaySeconds of a readiness / startup probe on this container. */
  readinessDelay?: number;
  startupDelay?: number;
}

export interface PodOpts {
  name?: string;
  namespace?: string;
  uid?: string;
  mode: 'classic' | 'native' | 'hold' | 'none' | 'gateway';
  apps?: Ctr[];
  proxy?: Partial<Ctr>;
  conditions?: Record<string, number>;
  annotations?: Record<string, string>;
  grace?: number;
  deletion?: { at: number; grace: number };
  nodeName?: string;
  owner?: { replicaSet: string; hash: string };
  noStatus?: boolean;
  startTime?: number;
  /** Where istio-proxy sits in `containers` (classic: last, hold: first by default). */
  proxyAt?: 'first' | 'last';
}

function container(c: Ctr): Container {
  const out: Container = { name: c.name, image: `example/${c.name}` };
  if (c.command) out.command = c.command;
  if (c.args) out.args = c.args;
  if (c.env) out.env = Object.entries(c.env).map(([name, value]) => ({ name, value }));
  const probe = (d: number) => ({
    httpGet: { path: '/healthz/ready', port: 15021 },
    initialDelaySeconds: d,
  });
  if (c.readinessDelay !== undefined) out.readinessProbe = probe(c.readinessDelay);
  if (c.startupDelay !== undefined) out.startupProbe = probe(c.startupDelay);
  if (c.preStopSleep !== undefined)
    out.lifecycle = { preStop: { sleep: { seconds: c.preStopSleep } } };
  if (c.preStopExec) out.lifecycle = { preStop: { exec: { command: c.preStopExec } } };
  return out;
}

function status(c: Ctr): ContainerStatus {
  const s: ContainerStatus = {
    name: c.name,
    ready: c.ready ?? (c.startedAt !== undefined && !c.terminated),
    restartCount: c.restarts ?? 0,
  };
  const term = (r: Run) => ({
    startedAt: at(r.startedAt),
    finishedAt: at(r.finishedAt),
    exitCode: r.exitCode,
    ...(r.reason ? { reason: r.reason } : {}),
  });
  if (c.terminated) s.state = { terminated: term(c.terminated) };
  else if (c.startedAt !== undefined) s.state = { running: { startedAt: at(c.startedAt) } };
  else s.state = { waiting: { reason: 'ContainerCreating' } };
  s.lastState = c.last ? { terminated: term(c.last) } : {};
  return s;
}

export function buildPod(o: PodOpts): Pod {
  const name = o.name ?? 'web-7d9f8b6c5d-abcde';
  const apps = o.apps ?? [{ name: 'app', startedAt: 2 }];
  const proxyC: Ctr = { name: 'istio-proxy', startedAt: 3, ...o.proxy };
  const proxy = container(proxyC);
  proxy.args = o.mode === 'gateway' ? ['proxy', 'router'] : ['proxy', 'sidecar'];
  const init: Container[] = [{ name: 'istio-init', args: ['istio-iptables'] }];
  let containers = apps.map(container);
  if (o.mode === 'native') init.push({ ...proxy, restartPolicy: 'Always' });
  if (o.mode === 'hold') {
    proxy.lifecycle = { postStart: { exec: { command: ['pilot-agent', 'wait'] } } };
  }
  if (o.mode === 'classic' || o.mode === 'hold') {
    const first = (o.proxyAt ?? (o.mode === 'hold' ? 'first' : 'last')) === 'first';
    containers = first ? [proxy, ...containers] : [...containers, proxy];
  }
  if (o.mode === 'gateway') containers = [proxy];
  const withProxy = o.mode !== 'none';
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: o.namespace ?? 'shop',
      uid: o.uid ?? `uid-${name}`,
      ...(o.annotations ? { annotations: o.annotations } : {}),
    },
    spec: {
      containers,
      ...(withProxy && o.mode !== 'gateway' ? { initContainers: init } : {}),
      ...(o.grace !== undefined ? { terminationGracePeriodSeconds: o.grace } : {}),
      nodeName: o.nodeName ?? 'node-a',
    },
  };
  if (o.owner) {
    pod.metadata.labels = { 'pod-template-hash': o.owner.hash };
    pod.metadata.ownerReferences = [
      { kind: 'ReplicaSet', name: o.owner.replicaSet, controller: true },
    ];
  }
  if (o.deletion) {
    pod.metadata.deletionTimestamp = at(o.deletion.at + o.deletion.grace);
    pod.metadata.deletionGracePeriodSeconds = o.deletion.grace;
  }
  if (o.noStatus) return pod;
  const appStatuses = o.mode === 'gateway' ? [] : apps.map(status);
  const proxyStatus = withProxy ? [status(proxyC)] : [];
  pod.status = {
    phase: 'Running',
    startTime: at(o.startTime ?? 0),
    conditions: Object.entries(o.conditions ?? {}).map(([type, s]) => ({
      type,
      status: 'True',
      lastTransitionTime: at(s),
    })),
    containerStatuses: o.mode === 'native' ? appStatuses : [...appStatuses, ...proxyStatus],
    ...(o.mode === 'native' ? { initContainerStatuses: proxyStatus } : {}),
  };
  return pod;
}

export function event(
  pod: Pod,
  reason: string,
  message: string,
  s: number,
  opts: { container?: string; host?: string; count?: number } = {},
): KubeEvent {
  return {
    kind: 'Event',
    metadata: { name: `${pod.metadata.name}.${reason}.${s}`, namespace: pod.metadata.namespace },
    involvedObject: {
      kind: 'Pod',
      name: pod.metadata.name,
      namespace: pod.metadata.namespace,
      uid: pod.metadata.uid,
      ...(opts.container ? { fieldPath: `spec.containers{${opts.container}}` } : {}),
    },
    reason,
    message,
    type: reason === 'Unhealthy' ? 'Warning' : 'Normal',
    count: opts.count ?? 1,
    firstTimestamp: at(s),
    lastTimestamp: at(s),
    source: { component: 'kubelet', host: opts.host ?? pod.spec.nodeName },
  };
}
