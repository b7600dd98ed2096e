import type { Scenario } from '../world/types';
import { World } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { applyTables, calls, fqdn, type BuiltNamespace, type NamespaceTable } from './table';
import { steadyTraffic, type Route } from './traffic';

const NS = 'ports';
const probe = { path: '/readyz', port: 8080 };

export const PORT_TABLES: readonly NamespaceTable[] = [
  {
    name: NS,
    services: [
      { name: 'web-legacy', ports: [{ name: 'web', port: 80, targetPort: 8080 }] },
      { name: 'numbers', ports: [{ name: '8080', port: 8080 }] },
      { name: 'suffix-wrong', ports: [{ name: 'foo-http', port: 8080 }] },
      { name: 'web-good', ports: [{ name: 'http-web', port: 8080 }] },
      { name: 'grpc-api', ports: [{ name: 'api', port: 9090, appProtocol: 'grpc' }] },
      {
        name: 'mux',
        ports: [
          { name: 'http', port: 8080, targetPort: 8080 },
          { name: 'tcp-raw', port: 8081, targetPort: 8080 },
        ],
      },
      { name: 'orders-db', ports: [{ name: 'db', port: 3306 }] },
      // MySQL behind a non-standard Service port: sniffed, and MySQL speaks first -> hangs
      { name: 'ledger-db', ports: [{ name: 'db', port: 13306, targetPort: 3306 }] },
    ],
    workloads: [
      { name: 'web-legacy', replicas: 2, httpProbe: probe, startAt: -5000 },
      { name: 'numbers', replicas: 1, httpProbe: probe, startAt: -5000 },
      { name: 'suffix-wrong', replicas: 1, startAt: -5000 },
      { name: 'web-good', replicas: 2, httpProbe: probe, startAt: -5000 },
      {
        name: 'grpc-api',
        replicas: 1,
        ports: [{ name: 'grpc', containerPort: 9090 }],
        startAt: -5000,
      },
      {
        name: 'mux',
        replicas: 1,
        httpProbe: probe,
        rewriteProbes: false,
        startAt: -5000,
        annotations: { 'sidecar.istio.io/rewriteAppHTTPProbers': 'false' },
      },
      {
        name: 'orders-db',
        replicas: 1,
        ports: [{ name: 'mysql', containerPort: 3306 }],
        startAt: -5000,
      },
      {
        name: 'ledger-db',
        replicas: 1,
        ports: [{ name: 'mysql', containerPort: 3306 }],
        startAt: -5000,
      },
      {
        name: 'fetcher',
        replicas: 1,
        startAt: -5000,
        annotations: calls([`${fqdn('orders-db', NS)}:3306`, `${fqdn('web-legacy', NS)}:80`]),
      },
    ],
  },
];

/** fetcher calls an in-mesh service and an external host without a ServiceEntry (PassthroughCluster). */
export function portTraffic(world: World, built: BuiltNamespace): void {
  const svc = world.servicesIn(NS).find((s) => s.metadata.name === 'web-legacy');
  if (svc === undefined) return;
  const external: Route = {
    service: { ...svc, spec: { ...svc.spec, clusterIP: '93.184.215.14' } },
    port: 80,
    path: '/v1/rates',
    cluster: 'PassthroughCluster',
    authority: 'api.exchange-rates.example.com',
    upstreamHost: '93.184.215.14:80',
  };
  const inMesh: Route = { service: svc, port: 80, path: '/' };
  steadyTraffic(
    world,
    [{ client: () => built.pods.get('fetcher') ?? [], routes: [inMesh, external] }],
    3000,
  );
}

export const portNaming: Scenario = {
  name: 'port-naming',
  description:
    'ports: bad port names (web, 8080, foo-http), a good http-web, appProtocol grpc, a multiplexed targetPort, mysql on "db", PassthroughCluster calls, rewritten and opted-out HTTP probes',
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    const [ns] = applyTables(world, PORT_TABLES);
    if (ns !== undefined) portTraffic(world, ns);
  },
};
