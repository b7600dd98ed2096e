import type { Scenario } from '../world/types';
import { World } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { applyTables, type NamespaceTable } from './table';

function intParam(v: string | undefined, dflt: number): number {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n >= 0 ? n : dflt;
}

/**
 * `services` services in ceil(services/10) namespaces, one Deployment per service, `pods` pods
 * spread over them (the first ones get one more when it does not divide). No timers, no events.
 */
export function scaleTables(pods: number, services: number): NamespaceTable[] {
  const nsCount = Math.max(1, Math.ceil(services / 10));
  const tables: NamespaceTable[] = [];
  const base = services > 0 ? Math.floor(pods / services) : 0;
  const extra = services > 0 ? pods % services : 0;
  for (let n = 0; n < nsCount; n++) {
    const name = `scale-${String(n).padStart(3, '0')}`;
    const t: NamespaceTable = { name, services: [], workloads: [] };
    for (let i = n * 10; i < Math.min(services, (n + 1) * 10); i++) {
      const svc = `svc-${String(i).padStart(4, '0')}`;
      t.services.push({
        name: svc,
        ports: [
          { name: 'http', port: 8080 },
          { name: 'grpc', port: 9090 },
        ],
      });
      t.workloads.push({ name: svc, replicas: base + (i < extra ? 1 : 0), startAt: -86_000 + i });
    }
    tables.push(t);
  }
  return tables;
}

export const scale: Scenario = {
  name: 'scale',
  description:
    'benchmark load: params pods (default 2000) and services (default 500), 10 services per namespace',
  start(ctx) {
    const world = new World(ctx);
    const pods = intParam(ctx.params.pods, 2000);
    const services = intParam(ctx.params.services, 500);
    world.batch(() => buildIstioSystem(world));
    applyTables(world, scaleTables(pods, services), { quiet: true });
  },
};
