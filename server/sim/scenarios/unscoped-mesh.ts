import type { Scenario } from '../world/types';
import { World } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import type { Ids } from '../world/build/ids';
import type { ServicePort } from '../../../lib/kube/types';
import { applyTables, calls, fqdn, type BuiltNamespace, type NamespaceTable } from './table';
import { steadyTraffic, type Route } from './traffic';

const TEAMS = [
  'accounts',
  'ads',
  'analytics',
  'auth',
  'billing',
  'cms',
  'data',
  'fleet',
  'geo',
  'growth',
];
const SERVICES = ['api', 'worker', 'gateway', 'store', 'events', 'profile', 'search', 'notify'];
const PORT_SETS: ServicePort[][] = [
  [{ name: 'http', port: 8080 }],
  [
    { name: 'http', port: 8080 },
    { name: 'grpc', port: 9090 },
  ],
  [
    { name: 'http', port: 80, targetPort: 8080 },
    { name: 'http-metrics', port: 9102 },
  ],
  [
    { name: 'grpc', port: 9090 },
    { name: 'tcp-admin', port: 9000 },
    { name: 'http', port: 8080 },
  ],
];

export interface UnscopedOptions {
  namespaces: number;
  /** Namespace index that already has a namespace-default Sidecar (-1: none). */
  scopedIndex: number;
  maxPodsPerWorkload: number;
}

/** Generate the namespace tables deterministically from the seeded ids. */
export function unscopedTables(ids: Ids, o: UnscopedOptions): NamespaceTable[] {
  const tables: NamespaceTable[] = [];
  const all: string[] = [];
  for (let n = 0; n < o.namespaces; n++) {
    const name = `${TEAMS[n % TEAMS.length] ?? 'team'}-${String(Math.floor(n / TEAMS.length) + 1)}`;
    const svcCount = ids.int(2, 4);
    const offset = ids.int(0, SERVICES.length - 1);
    const services = Array.from({ length: svcCount }, (_, i) => ({
      name: SERVICES[(offset + i) % SERVICES.length] ?? `svc-${i}`,
      ports: PORT_SETS[ids.int(0, PORT_SETS.length - 1)] ?? [{ name: 'http', port: 8080 }],
    }));
    for (const s of services) all.push(`${fqdn(s.name, name)}:${s.ports[0]?.port ?? 8080}`);
    const deployCount = Math.min(services.length, ids.int(1, 3));
    tables.push({
      name,
      services,
      subsets: services.filter(() => ids.random() < 0.3).map((s) => s.name),
      scoped: n === o.scopedIndex,
      workloads: services.slice(0, deployCount).map((s) => ({
        name: s.name,
        replicas: ids.int(1, o.maxPodsPerWorkload),
        startAt: -ids.int(3600, 86_000),
        ports: [
          ...new Set(
            s.ports.map((p) => (typeof p.targetPort === 'number' ? p.targetPort : p.port)),
          ),
        ].map((containerPort) => ({ containerPort })),
      })),
    });
  }
  // Each workload really calls a small subset: one or two services somewhere in the mesh.
  for (const t of tables) {
    for (const w of t.workloads) {
      const targets = [all[ids.int(0, all.length - 1)], all[ids.int(0, all.length - 1)]].filter(
        (x): x is string => x !== undefined,
      );
      w.annotations = calls([...new Set(targets)]);
    }
  }
  return tables;
}

/** Light traffic following each workload's calls annotation. */
export function callTraffic(world: World, built: BuiltNamespace[]): void {
  const svcByHost = new Map<string, Route>();
  for (const b of built) {
    for (const s of world.servicesIn(b.table.name)) {
      for (const p of s.spec.ports ?? []) {
        svcByHost.set(`${fqdn(s.metadata.name, b.table.name)}:${p.port}`, {
          service: s,
          port: p.port,
          path: '/',
        });
      }
    }
  }
  const pairs = built.flatMap((b) =>
    [...b.deployments.values()].map((dep) => ({
      client: () => b.pods.get(dep.spec.name) ?? [],
      routes: (dep.tpl.annotations['sim.meshdx.io/calls'] ?? '')
        .split(',')
        .map((h) => svcByHost.get(h))
        .filter((r): r is Route => r !== undefined),
    })),
  );
  steadyTraffic(world, pairs, 5000);
}

export const unscopedMesh: Scenario = {
  name: 'unscoped-mesh',
  description:
    '40 namespaces of services (several ports, some DestinationRule subsets) without Sidecar resources except one scoped namespace; every proxy gets the whole mesh',
  start(ctx) {
    const world = new World(ctx);
    buildIstioSystem(world);
    const count = Number(ctx.params.namespaces ?? '40');
    const tables = unscopedTables(world.ids, {
      namespaces: Number.isFinite(count) && count > 0 ? count : 40,
      scopedIndex: 3,
      maxPodsPerWorkload: 3,
    });
    const built = applyTables(world, tables);
    callTraffic(world, built);
  },
};
