/**
 * meshdx's judgement of each pod's data plane (lib/dataplane/mode.ts podDataplane) against what
 * the simulated ztunnels hold (their admin /config_dump over port-forward, read as the Proxies
 * screen reads it). The simulator decides which pods ztunnel captures from its own reading of
 * Istio's CNI rules (server/sim/mesh/istio-model/capture.ts), so where the two differ one of
 * them reads Istio wrong: a pod meshdx calls ambient must be an HBONE workload with the waypoint
 * meshdx names, every other pod a plain TCP one.
 */
import { describe, expect, it } from 'vitest';
import { isZtunnelPod, podDataplane } from '../../lib/dataplane/mode';
import type { ZtunnelWorkloadIn } from '../../lib/ambient/ztunnel';
import { podKeyOfObject } from '../../lib/refs/pod-ref';
import { listNamespaces, listPods } from '../../server/kube/resources';
import { readZtunnel } from '../../server/screens/proxies/ztunnel';
import { simClient } from '../../test-support/simulator';

const c = simClient('ambient');

describe("meshdx's ambient capture against the simulated ztunnels", () => {
  it('calls ambient exactly the pods every ztunnel holds as HBONE workloads', async () => {
    const [pods, namespaces] = await Promise.all([listPods(c.t), listNamespaces(c.t)]);
    const nsByName = new Map(namespaces.items.map((n) => [n.metadata.name, n]));
    const ztunnels = pods.items.filter((p) => isZtunnelPod(p));
    expect(ztunnels.length).toBe(3);
    const workloads = pods.items.filter(
      (p) => !isZtunnelPod(p) && p.status?.podIP && !p.spec?.hostNetwork,
    );
    const ambient = workloads.filter(
      (p) => podDataplane(p, nsByName.get(p.metadata.namespace ?? '')).mode === 'ambient',
    );
    // the scenario has both kinds, and opt-outs inside an ambient namespace
    expect(ambient.length).toBeGreaterThan(0);
    expect(
      workloads.some(
        (p) =>
          p.metadata.namespace === 'mesh-ambient' &&
          p.metadata.labels?.['istio.io/dataplane-mode'] === 'none',
      ),
    ).toBe(true);
    for (const zt of ztunnels) {
      const read = await readZtunnel(c.kc, 'istio-system', zt.metadata.name, 5_000);
      if (!read.ok) throw new Error(read.problem);
      const byIp = new Map<string, ZtunnelWorkloadIn>();
      for (const w of read.read.config.workloads) for (const ip of w.ips) byIp.set(ip, w);
      for (const pod of workloads) {
        const d = podDataplane(pod, nsByName.get(pod.metadata.namespace ?? ''));
        const held = byIp.get(pod.status?.podIP ?? '');
        const key = `${zt.metadata.name}: ${podKeyOfObject(pod)} (${d.why})`;
        expect(held?.name, key).toBe(pod.metadata.name);
        expect(held?.protocol, key).toBe(d.mode === 'ambient' ? 'HBONE' : 'TCP');
        // istioctl names a workload's waypoint by its Service's name
        const waypoint = d.mode === 'ambient' && d.waypoint ? d.waypoint.split('/')[1] : null;
        expect(held?.waypoint ?? null, key).toBe(waypoint);
      }
    }
  });
});
