import type { Container, Pod, Service, ServicePort } from '../kube/types';
import { PROXY_CONTAINER } from '../dataplane/proxy-container';
import { workloadKey, workloadOf } from '../refs/workload-ref';

/** Namespaces istioctl analyze leaves out of port checks. */
export const SYSTEM_NAMESPACES: ReadonlySet<string> = new Set([
  'kube-system',
  'kube-public',
  'kube-node-lease',
  'local-path-storage',
]);

/** istioctl's "Istio control plane" test (util.IsIstioControlPlane): an `istio` label, or `release: istio`. */
export function isIstioControlPlane(o: Pick<Service, 'metadata'>): boolean {
  const l = o.metadata.labels ?? {};
  return 'istio' in l || l.release === 'istio';
}

/** Whether istioctl analyze's port checks apply to the Service. */
export function portChecksApplyTo(svc: Service): boolean {
  return !SYSTEM_NAMESPACES.has(svc.metadata.namespace ?? 'default') && !isIstioControlPlane(svc);
}

/** A Service selects a pod when its selector is non-empty and every pair matches (same namespace). */
export function selects(svc: Service, pod: Pod): boolean {
  const sel = svc.spec.selector;
  if (sel === undefined || Object.keys(sel).length === 0) return false;
  if ((svc.metadata.namespace ?? '') !== (pod.metadata.namespace ?? '')) return false;
  const labels = pod.metadata.labels ?? {};
  return Object.entries(sel).every(([k, v]) => labels[k] === v);
}

export const PROXY_NAME = PROXY_CONTAINER;

/** The pod's application containers (the proxy, wherever it sits, is not one). */
function appContainers(pod: Pod): Container[] {
  return pod.spec.containers.filter((c) => c.name !== PROXY_NAME);
}

export interface TargetPort {
  /** The container port number, or null when a named targetPort matches no container port. */
  number: number | null;
  /** The targetPort as written (or the port number when absent). */
  written: string;
  containerPortName?: string;
  container?: string;
}

/** Resolve a Service port's targetPort against a pod's containers (a name needs the pod). */
export function resolveTargetPort(sp: ServicePort, pod: Pod | undefined): TargetPort {
  const tp = sp.targetPort ?? sp.port;
  const all = pod === undefined ? [] : appContainers(pod);
  if (typeof tp === 'number' || /^\d+$/.test(tp)) {
    const n = typeof tp === 'number' ? tp : Number(tp);
    const owner = all.find((c) => c.ports?.some((p) => p.containerPort === n));
    const cp = owner?.ports?.find((p) => p.containerPort === n);
    return { number: n, written: String(n), containerPortName: cp?.name, container: owner?.name };
  }
  for (const c of all) {
    const cp = c.ports?.find((p) => p.name === tp);
    if (cp !== undefined) {
      return { number: cp.containerPort, written: tp, containerPortName: tp, container: c.name };
    }
  }
  return { number: null, written: tp };
}

export interface WorkloadGroup {
  namespace: string;
  kind: string;
  name: string;
  /** One pod stands for the workload (its template). */
  pod: Pod;
  pods: number;
}

/** Pods grouped by workload; the first pod of each stands for its template. */
export function groupWorkloads(pods: readonly Pod[]): WorkloadGroup[] {
  const out = new Map<string, WorkloadGroup>();
  for (const pod of pods) {
    const w = workloadOf(pod);
    const ns = pod.metadata.namespace ?? '';
    const key = workloadKey({ namespace: ns, kind: w.kind, name: w.name });
    const g = out.get(key);
    if (g === undefined) out.set(key, { namespace: ns, kind: w.kind, name: w.name, pod, pods: 1 });
    else g.pods += 1;
  }
  return [...out.values()];
}

/**
 * Which workloads' proxy logs to read when not all can be: workloads no Service selects first
 * (pure clients, the ones that call out), then the rest, taking one per namespace in turn so
 * that every namespace is covered before any gets a second.
 */
export function pickLogWorkloads(
  groups: readonly WorkloadGroup[],
  services: readonly Service[],
  max: number,
): WorkloadGroup[] {
  const isClient = (g: WorkloadGroup) => !services.some((s) => selects(s, g.pod));
  const roundRobin = (list: readonly WorkloadGroup[]): WorkloadGroup[] => {
    const byNs = new Map<string, WorkloadGroup[]>();
    for (const g of list) {
      const l = byNs.get(g.namespace);
      if (l === undefined) byNs.set(g.namespace, [g]);
      else l.push(g);
    }
    const queues = [...byNs.keys()].sort().map((k) => byNs.get(k) ?? []);
    const out: WorkloadGroup[] = [];
    for (let i = 0; out.length < list.length; i++) {
      for (const q of queues) {
        const g = q[i];
        if (g !== undefined) out.push(g);
      }
    }
    return out;
  };
  return [
    ...roundRobin(groups.filter(isClient)),
    ...roundRobin(groups.filter((g) => !isClient(g))),
  ].slice(0, Math.max(0, max));
}
