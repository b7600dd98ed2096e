import type { Scenario } from '../world/types';
import { World } from '../world/build/world';
import { buildIstioSystem } from '../world/build/istio';
import { applyTables, INJECTED, type NamespaceTable } from './table';

function intParam(v: string | undefined, dflt: number): number {
  const n = Number(v);
  return v !== undefined && Number.isInteger(n) && n >= 0 ? n : dflt;
}

/**
 * `services` services in ceil(services/10) namespaces, one Deployment per service, `pods` pods
 * spread over them (the first ones get one more when it does not divide). No timers, no events.
 *
 * `proxies` (default: every pod) is how many of those pods carry a sidecar, counted in whole
 * workloads from the first one: the workloads that fit are injected, the others are not, as a
 * real mesh rolled out to some namespaces only. A namespace with no injected workload has no
 * `istio-injection` label; in the one where the cut falls, the workloads past it opt out with
 * `sidecar.istio.io/inject: "false"`, as an injector's users do.
 */
export function scaleTables(pods: number, services: number, proxies = pods): NamespaceTable[] {
  const nsCount = Math.max(1, Math.ceil(services / 10));
  const tables: NamespaceTable[] = [];
  const base = services > 0 ? Math.floor(pods / services) : 0;
  const extra = services > 0 ? pods % services : 0;
  let meshed = 0;
  let cut = false;
  for (let n = 0; n < nsCount; n++) {
    const name = `scale-${String(n).padStart(3, '0')}`;
    const t: NamespaceTable = { name, services: [], workloads: [] };
    let injected = false;
    for (let i = n * 10; i < Math.min(services, (n + 1) * 10); i++) {
      const svc = `svc-${String(i).padStart(4, '0')}`;
      t.services.push({
        name: svc,
        ports: [
          { name: 'http', port: 8080 },
          { name: 'grpc', port: 9090 },
        ],
      });
      const replicas = base + (i < extra ? 1 : 0);
      cut ||= meshed + replicas > proxies;
      if (!cut) {
        meshed += replicas;
        injected = true;
        t.workloads.push({ name: svc, replicas, startAt: -86_000 + i });
      } else {
        t.workloads.push({
          name: svc,
          replicas,
          startAt: -86_000 + i,
          mode: 'none',
          annotations: { 'sidecar.istio.io/inject': 'false' },
        });
      }
    }
    t.labels = injected ? INJECTED : {};
    // a namespace without injection needs no opt-out on its workloads
    if (!injected) for (const w of t.workloads) delete w.annotations;
    tables.push(t);
  }
  return tables;
}

export const scale: Scenario = {
  name: 'scale',
  description:
    'benchmark load: params pods (default 2000), services (default 500) and proxies (pods with a sidecar, default all), 10 services per namespace',
  start(ctx) {
    const world = new World(ctx);
    const pods = intParam(ctx.params.pods, 2000);
    const services = intParam(ctx.params.services, 500);
    const proxies = Math.min(pods, intParam(ctx.params.proxies, pods));
    world.batch(() => buildIstioSystem(world));
    applyTables(world, scaleTables(pods, services, proxies), { quiet: true });
  },
};
