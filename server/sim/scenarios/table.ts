import type { DestinationRule, Sidecar } from '../../../lib/kube/types';
import type { ServiceSpec } from '../world/build/service';
import type { WorkloadSpec } from '../world/build/workload';
import type { Deployment, PodEntry, World } from '../world/build/world';
import { CALLS_ANNOTATION } from '../mesh/annotations';

/** One namespace of a scenario, as data: the interpreter below turns it into objects. */
export interface NamespaceTable {
  name: string;
  labels?: Record<string, string>;
  services: ServiceSpec[];
  workloads: WorkloadSpec[];
  /** Services that get a DestinationRule with subsets v1 and v2. */
  subsets?: string[];
  /** A namespace-default Sidecar (egress ./* and istio-system/*). */
  scoped?: boolean;
}

export interface BuiltNamespace {
  table: NamespaceTable;
  deployments: Map<string, Deployment>;
  pods: Map<string, PodEntry[]>;
}

export const INJECTED = { 'istio-injection': 'enabled' };

/** `sim.meshdx.io/calls` for the mesh emulator: the upstreams a workload really calls. */
export function calls(targets: string[]): Record<string, string> {
  return { [CALLS_ANNOTATION]: targets.join(',') };
}

export const fqdn = (svc: string, ns: string): string => `${svc}.${ns}.svc.cluster.local`;

/** Build every namespace of the tables: services, deployments, running pods, Istio config. */
export function applyTables(
  world: World,
  tables: readonly NamespaceTable[],
  opts: { quiet?: boolean } = {},
): BuiltNamespace[] {
  const out: BuiltNamespace[] = [];
  world.batch(() => {
    for (const t of tables) {
      world.namespace(t.name, t.labels ?? INJECTED);
      for (const s of t.services) world.service(t.name, s);
      for (const host of t.subsets ?? []) {
        const dr: DestinationRule = {
          apiVersion: 'networking.istio.io/v1',
          kind: 'DestinationRule',
          metadata: { name: host, namespace: t.name },
          spec: {
            host: fqdn(host, t.name),
            subsets: [
              { name: 'v1', labels: { version: 'v1' } },
              { name: 'v2', labels: { version: 'v2' } },
            ],
          },
        };
        world.object('destinationrules', dr);
      }
      if (t.scoped === true) {
        const sc: Sidecar = {
          apiVersion: 'networking.istio.io/v1',
          kind: 'Sidecar',
          metadata: { name: 'default', namespace: t.name },
          spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
        };
        world.object('sidecars', sc);
      }
      const built: BuiltNamespace = { table: t, deployments: new Map(), pods: new Map() };
      for (const w of t.workloads) {
        const dep = world.deployment(t.name, w);
        built.deployments.set(w.name, dep);
        const start = world.at(w.startAt ?? -3600);
        const pods: PodEntry[] = [];
        for (let i = 0; i < w.replicas; i++) {
          pods.push(
            world.startPod(dep, start + i * 1500, opts.quiet === true ? { quiet: true } : {}),
          );
        }
        if (w.deleteAt !== undefined && pods[0] !== undefined) {
          world.stopPod(pods[0], world.at(w.deleteAt), opts.quiet === true);
        }
        built.pods.set(w.name, pods);
      }
      out.push(built);
    }
  });
  return out;
}
