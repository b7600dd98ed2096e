/**
 * What the Scoping integration tests share: the unscoped-mesh simulator wired in as meshdx's
 * cluster (kubeconfig file, environment), and reads of its raw objects and proxies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type {
  DestinationRule,
  Pod,
  Service,
  ServiceEntry,
  Sidecar,
  VirtualService,
} from '../../lib/kube/types';
import { scrapeProxyStats } from '../../server/envoy/scrape';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { resetRegistry, baseRuntimeFor } from '../../server/runtime/registry';
import type { RawMesh } from './istio-rules';
import { podKey } from '../../lib/refs/pod-ref';
import {
  COMPLETENESS_ENV,
  GATHER_GUARD_MS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

export interface WiredSim {
  readonly sim: RunningSimulator;
}

/**
 * Starts unscoped-mesh before the file's tests (register this before their own hooks). The
 * tests check that every proxy is measured and observed, so meshdx's view deadline and proxy
 * timeout are ones no proxy that answers can miss, however busy the machine.
 */
export function wiredUnscopedMesh(prefix: string): WiredSim {
  let sim: RunningSimulator | undefined;
  let dir = '';
  const saved = { ...process.env };
  beforeAll(async () => {
    sim = await startSimulator({
      scenario: 'unscoped-mesh',
      port: 0,
      clock: { fixed: new Date('2026-03-01T12:00:00Z') },
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `meshdx-${prefix}-`));
    const kubeconfig = path.join(dir, 'kubeconfig');
    fs.writeFileSync(kubeconfig, sim.kubeconfigYaml);
    process.env.MESHDX_KUBECONFIG = kubeconfig;
    Object.assign(process.env, COMPLETENESS_ENV);
    delete process.env.MESHDX_PROMETHEUS;
    resetRegistry();
  }, GATHER_GUARD_MS);
  afterAll(async () => {
    resetRegistry();
    process.env = saved;
    await sim?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get sim() {
      if (!sim) throw new Error('simulator not started (use it inside a test)');
      return sim;
    },
  };
}

/** The raw objects the independent count (istio-rules.ts) works from. */
export function rawMeshOf(sim: RunningSimulator, withVirtualServices = true): RawMesh {
  return {
    services: sim.store.list<Service>('services'),
    serviceEntries: sim.store.list<ServiceEntry>('serviceentries'),
    destinationRules: sim.store.list<DestinationRule>('destinationrules'),
    sidecars: sim.store.list<Sidecar>('sidecars'),
    virtualServices: withVirtualServices ? sim.store.list<VirtualService>('virtualservices') : [],
    rootNamespace: 'istio-system',
  };
}

export function podNamed(sim: RunningSimulator, namespace: string, name: string): Pod {
  const pod = sim.store
    .list<Pod>('pods')
    .find((p) => (p.metadata.namespace ?? 'default') === namespace && p.metadata.name === name);
  if (!pod) throw new Error(`no pod ${podKey(namespace, name)}`);
  return pod;
}

/** What the proxy itself reports (envoy_cluster_manager_active_clusters), or null. */
export async function activeClusters(namespace: string, pod: string): Promise<number | null> {
  const r = await scrapeProxyStats(
    baseRuntimeFor().transport,
    namespace,
    pod,
    NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
  );
  return r.ok ? r.stats.activeClusters : null;
}
