import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../lib/kube/types';
import { listPaged } from '../../server/kube/listwatch';
import { CORE } from '../../server/kube/resources';
import { KubeTransport, type RequestOptions } from '../../server/kube/transport';
import { scanFleet } from '../../server/screens/proxies/scan';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import {
  NO_DEADLINE_FOR_COMPLETENESS,
  NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
} from '../../test-support/deadlines';

/** A transport that says when the API discovery (/apis) failed. */
class DiscoverySpy extends KubeTransport {
  failed!: () => void;
  readonly discoveryFailed = new Promise<void>((r) => (this.failed = r));
  override async request(pathname: string, opts?: RequestOptions) {
    try {
      return await super.request(pathname, opts);
    } catch (e) {
      if (pathname === '/apis') this.failed();
      throw e;
    }
  }
}

let sim: RunningSimulator;
let kc: KubeConfig;
beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'demo',
    port: 0,
    clock: { fixed: new Date('2026-11-01T12:00:00Z') },
  });
  kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml);
});
afterAll(async () => sim?.close());

describe('a Proxies scan whose Istio config read fails while the pods are still being read', () => {
  it('answers with the failure, and leaves no unhandled rejection meanwhile', async () => {
    const pods = (await listPaged<Pod>(new KubeTransport(kc), CORE.pods)).items;
    const unhandled: unknown[] = [];
    const note = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', note);
    const t = new DiscoverySpy(kc);
    // every API request fails from now on (a 500, retried, then given up on)
    sim.faults.errorRate = 1;
    try {
      const answer = scanFleet({
        transport: t,
        kc,
        istioNamespace: 'istio-system',
        concurrency: 8,
        timeoutMs: NO_PROXY_TIMEOUT_FOR_COMPLETENESS,
        deadlineMs: NO_DEADLINE_FOR_COMPLETENESS,
        syncGraceMs: 0,
        // the pods come only once the discovery has failed, and a turn of the event loop later
        pods: () =>
          t.discoveryFailed.then(() => new Promise<Pod[]>((r) => setImmediate(() => r(pods)))),
      }).catch((e: unknown) => e);
      await t.discoveryFailed;
      const result = await answer;
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
      // the failure is the scan's answer (or a part of it), not lost
      expect(JSON.stringify(result instanceof Error ? result.message : result)).toMatch(
        /500|InternalError|injected/,
      );
    } finally {
      sim.faults.errorRate = 0;
      process.off('unhandledRejection', note);
      t.close();
    }
  });
});
