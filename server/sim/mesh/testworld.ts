/**
 * A small hand-built world for the mesh emulator's tests (bookinfo-like): objects in arrays, a
 * MeshWorld over them, and builders for pods and services.
 */
import type { DestinationRule, KubeObject, Pod, Service, Sidecar } from '../../../lib/kube/types';
import type { MeshWorld, SimKind } from './types';

export type WorldObjects = Partial<Record<SimKind, KubeObject[]>>;

let rv = 100;
function meta(
  name: string,
  namespace: string,
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject['metadata'] {
  rv += 1;
  return {
    name,
    namespace,
    resourceVersion: String(rv),
    creationTimestamp: '2024-06-01T10:00:00Z',
    ...extra,
  };
}

export function worldOf(
  objects: WorldObjects,
  now = new Date('2024-06-01T12:00:00Z'),
): MeshWorld & { objects: WorldObjects } {
  // a copy per call: tests change these lists in place, and list-derived values are kept per array
  return { objects, now: () => now, list: (kind) => [...(objects[kind] ?? [])] };
}

export interface PodOptions {
  labels?: Record<string, string>;
  proxy?: 'sidecar' | 'gateway' | 'none';
  ready?: boolean;
  annotations?: Record<string, string>;
  image?: string;
  ports?: { name?: string; containerPort: number }[];
}

export function makePod(name: string, namespace: string, ip: string, o: PodOptions = {}): Pod {
  const proxy = o.proxy ?? 'sidecar';
  const ready = o.ready ?? true;
  const containers: Pod['spec']['containers'] = [];
  if (proxy !== 'gateway') containers.push({ name: 'app', image: 'example/app:1', ports: o.ports });
  if (proxy !== 'none') {
    containers.push({
      name: 'istio-proxy',
      image: o.image ?? 'docker.io/istio/proxyv2:1.24.2',
      args:
        proxy === 'gateway'
          ? ['proxy', 'router', '--domain', `${namespace}.svc.cluster.local`]
          : ['proxy', 'sidecar'],
    });
  }
  const started = '2024-06-01T11:00:00Z';
  return {
    metadata: meta(name, namespace, {
      labels: o.labels ?? {},
      ...(o.annotations ? { annotations: o.annotations } : {}),
    }),
    spec: { containers },
    status: {
      phase: 'Running',
      podIP: ip,
      startTime: started,
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
      containerStatuses: containers.map((c) => ({
        name: c.name,
        ready: c.name === 'istio-proxy' ? ready : true,
        restartCount: 0,
        started: true,
        state: { running: { startedAt: started } },
      })),
    },
  };
}

export function makeService(
  name: string,
  namespace: string,
  ports: { port: number; name?: string; targetPort?: number | string }[],
  selector?: Record<string, string>,
  clusterIP = '10.96.0.10',
): Service {
  return { kind: 'Service', metadata: meta(name, namespace), spec: { clusterIP, selector, ports } };
}

export function makeSidecar(
  name: string,
  namespace: string,
  hosts: string[],
  selector?: Record<string, string>,
): Sidecar {
  return {
    kind: 'Sidecar',
    metadata: meta(name, namespace),
    spec: { ...(selector ? { workloadSelector: { labels: selector } } : {}), egress: [{ hosts }] },
  };
}

export function makeDestinationRule(
  name: string,
  namespace: string,
  host: string,
  subsets: string[],
): DestinationRule {
  return {
    kind: 'DestinationRule',
    metadata: meta(name, namespace),
    spec: {
      host,
      subsets: subsets.map((s) => ({ name: s, labels: { version: s } })),
      trafficPolicy: {
        outlierDetection: { consecutive5xxErrors: 5, interval: '10s', baseEjectionTime: '30s' },
      },
    },
  };
}

/** Bookinfo-ish: istiod, an ingress gateway, productpage -> reviews (v1, v2) and ratings in prod. */
export function bookinfo(): WorldObjects {
  return {
    pods: [
      makePod('istiod-7d9f', 'istio-system', '10.1.0.2', {
        labels: { app: 'istiod' },
        proxy: 'none',
      }),
      makePod('istio-ingressgateway-5c6b', 'istio-system', '10.1.0.3', {
        labels: { app: 'istio-ingressgateway' },
        proxy: 'gateway',
      }),
      makePod('productpage-v1-abc', 'default', '10.1.1.10', {
        labels: { app: 'productpage', version: 'v1' },
        annotations: { 'sim.meshdx.io/calls': 'reviews.default.svc.cluster.local:9080=42' },
      }),
      makePod('reviews-v1-aaa', 'default', '10.1.1.20', {
        labels: { app: 'reviews', version: 'v1' },
      }),
      makePod('reviews-v2-bbb', 'default', '10.1.1.21', {
        labels: { app: 'reviews', version: 'v2' },
      }),
      makePod('ratings-v1-ccc', 'prod', '10.1.2.30', { labels: { app: 'ratings', version: 'v1' } }),
      makePod('legacy-ddd', 'default', '10.1.1.40', { labels: { app: 'legacy' }, proxy: 'none' }),
    ],
    services: [
      makeService(
        'istiod',
        'istio-system',
        [
          { port: 15010, name: 'grpc-xds' },
          { port: 15012, name: 'https-dns' },
          { port: 443, name: 'https-webhook' },
          { port: 15014, name: 'http-monitoring' },
        ],
        { app: 'istiod' },
        '10.96.0.2',
      ),
      makeService(
        'istio-ingressgateway',
        'istio-system',
        [
          { port: 80, name: 'http2', targetPort: 8080 },
          { port: 443, name: 'https', targetPort: 8443 },
        ],
        { app: 'istio-ingressgateway' },
        '10.96.0.3',
      ),
      makeService(
        'productpage',
        'default',
        [{ port: 9080, name: 'http' }],
        { app: 'productpage' },
        '10.96.1.10',
      ),
      makeService(
        'reviews',
        'default',
        [{ port: 9080, name: 'http' }],
        { app: 'reviews' },
        '10.96.1.20',
      ),
      makeService(
        'ratings',
        'prod',
        [{ port: 9080, name: 'http' }],
        { app: 'ratings' },
        '10.96.2.30',
      ),
    ],
    destinationrules: [makeDestinationRule('reviews', 'default', 'reviews', ['v1', 'v2', 'v3'])],
    sidecars: [],
    serviceentries: [],
    endpointslices: [],
    configmaps: [],
  };
}
