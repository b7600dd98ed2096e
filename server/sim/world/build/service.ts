import type { EndpointSlice, Pod, Service, ServicePort } from '../../../../lib/kube/types';

export interface ServiceSpec {
  name: string;
  /** Selector app label (defaults to the service name). */
  app?: string;
  /** More labels on the Service (Istio's charts label theirs `istio: ...`). */
  labels?: Record<string, string>;
  ports: ServicePort[];
}

export function buildService(
  ns: string,
  s: ServiceSpec,
  clusterIP: string,
  created: string,
  uid: string,
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: s.name,
      namespace: ns,
      uid,
      creationTimestamp: created,
      labels: { app: s.app ?? s.name, ...s.labels },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP,
      selector: { app: s.app ?? s.name },
      ports: s.ports.map((p) => ({ protocol: 'TCP', targetPort: p.port, ...p })),
    },
  };
}

export function selects(svc: Service, pod: Pod): boolean {
  const sel = svc.spec.selector;
  if (sel === undefined || Object.keys(sel).length === 0) return false;
  const labels = pod.metadata.labels ?? {};
  return Object.entries(sel).every(([k, v]) => labels[k] === v);
}

/** Resolve a Service targetPort (number or container port name) against a pod. */
function targetPortOf(p: ServicePort, pods: readonly Pod[]): number {
  if (typeof p.targetPort === 'number') return p.targetPort;
  if (typeof p.targetPort === 'string') {
    for (const pod of pods) {
      for (const c of pod.spec.containers) {
        const hit = c.ports?.find((cp) => cp.name === p.targetPort);
        if (hit) return hit.containerPort;
      }
    }
  }
  return p.port;
}

/** The EndpointSlice the endpoint controller would write for `svc` over the given pods. */
export function buildEndpointSlice(
  svc: Service,
  pods: readonly Pod[],
  created: string,
): EndpointSlice {
  const ns = svc.metadata.namespace ?? 'default';
  const live = pods.filter((p) => p.status?.podIP !== undefined && selects(svc, p));
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${svc.metadata.name}-sim`,
      namespace: ns,
      creationTimestamp: created,
      labels: {
        'kubernetes.io/service-name': svc.metadata.name,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Service',
          name: svc.metadata.name,
          uid: svc.metadata.uid,
          controller: true,
        },
      ],
    },
    addressType: 'IPv4',
    endpoints: live.map((p) => {
      const terminating = p.metadata.deletionTimestamp !== undefined;
      const ready =
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
      const serving = terminating
        ? (p.status?.containerStatuses ?? []).every((c) => c.state?.running !== undefined)
        : ready;
      return {
        addresses: [p.status?.podIP ?? ''],
        conditions: { ready: ready && !terminating, serving, terminating },
        nodeName: p.spec.nodeName,
        targetRef: { kind: 'Pod', name: p.metadata.name, namespace: ns, uid: p.metadata.uid },
      };
    }),
    ports: (svc.spec.ports ?? []).map((p) => ({
      name: p.name ?? '',
      port: targetPortOf(p, live),
      protocol: p.protocol ?? 'TCP',
      ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
    })),
  };
}
