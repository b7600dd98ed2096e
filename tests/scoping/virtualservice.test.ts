/**
 * A VirtualService that routes past a Sidecar's egress hosts, end to end on the unscoped-mesh
 * simulator: istiod adds the services an imported VirtualService routes to (destination ports
 * only) even when no egress host names them. meshdx's prediction for the generated Sidecar must
 * count that destination, the simulated proxies must report exactly the predicted number, and the
 * count worked out here from the raw objects (istio-rules.ts) must agree with both.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ScopingView } from '../../lib/api/scoping-view';
import type { Service, Sidecar, VirtualService } from '../../lib/kube/types';

import { computeScoping, scopingDeps } from '../../server/screens/scoping/scoping';
import { baseRuntimeFor } from '../../server/runtime/registry';
import { collectionPath, ISTIO_GROUP, type IstioKind } from '../../server/kube/resources';
import { activeClusters, podNamed, rawMeshOf, wiredUnscopedMesh } from './harness';
import { GATHER_GUARD_MS } from '../../test-support/deadlines';
import { expectedActive } from './istio-rules';
import { workloadNameKey } from '../../lib/refs/workload-ref';
import { scopedHost } from '../../lib/refs/object-ref';

const h = wiredUnscopedMesh('scoping-vs');
let initial: ScopingView;
const nsOf = (o: { metadata: { namespace?: string } }) => o.metadata.namespace ?? 'default';
const fqdn = (s: Service) => `${s.metadata.name}.${nsOf(s)}.svc.cluster.local`;

beforeAll(async () => {
  initial = await computeScoping(scopingDeps(baseRuntimeFor()));
}, GATHER_GUARD_MS);

async function create(resource: IstioKind, namespace: string, body: unknown): Promise<number> {
  const res = await baseRuntimeFor().transport.request(
    collectionPath(
      { group: ISTIO_GROUP, version: 'v1', plural: resource, namespaced: true },
      namespace,
    ),
    { method: 'POST', body: JSON.stringify(body) },
  );
  return res.status;
}

describe('a VirtualService destination outside the Sidecar egress hosts (simulator)', () => {
  it('is predicted, warned about, and matches what the proxies report after applying', async () => {
    const first = initial.report.generated.find(
      (g) => g.level === 'namespace' && g.apply && g.action === 'create',
    );
    if (!first) throw new Error('no namespace Sidecar to create in the report');
    const ns = first.namespace;
    // a multi-port service in a namespace the generated Sidecar does not import
    const dest = h.sim.store
      .list<Service>('services')
      .find(
        (s) =>
          nsOf(s) !== ns &&
          nsOf(s) !== 'istio-system' &&
          !first.hosts.includes(scopedHost(nsOf(s), '*')) &&
          (s.spec.ports?.length ?? 0) >= 2,
      );
    if (!dest) throw new Error('no multi-port service outside the proposal');
    const host = fqdn(dest);
    const port = dest.spec.ports?.[0]?.port ?? 0;
    const vs: VirtualService = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: 'route-past-sidecar', namespace: ns },
      spec: {
        hosts: [host],
        http: [{ route: [{ destination: { host, port: { number: port } } }] }],
      },
    };
    expect(await create('virtualservices', ns, vs)).toBe(201);

    // meshdx sees the VirtualService: same egress hosts, the routed host is counted and named
    const view = await computeScoping(scopingDeps(baseRuntimeFor()));
    const proposal = view.report.generated.find(
      (g) => g.namespace === ns && g.level === 'namespace',
    );
    if (!proposal?.apply) throw new Error(`no applicable namespace proposal for ${ns}`);
    expect(proposal.hosts).toEqual(first.hosts);
    const via = proposal.warnings.find((w) => w.code === 'MDX0309');
    expect(via?.message).toContain(`${host} (VirtualService ${ns}/route-past-sidecar)`);

    const governed = view.report.workloads.filter((w) =>
      proposal.workloads.includes(workloadNameKey(w.namespace, w.name)),
    );
    const proxies = governed.flatMap((w) => w.proxies.map((p) => ({ w, p })));
    expect(proxies.length).toBe(proposal.proxies);
    expect(proxies.length).toBeGreaterThan(0);

    const egress = (parse(proposal.yaml) as Sidecar).spec.egress?.flatMap((e) => e.hosts) ?? [];
    expect(await create('sidecars', ns, parse(proposal.yaml))).toBe(201);

    let after = 0;
    for (const { w, p } of proxies) {
      const pod = podNamed(h.sim, w.namespace, p.pod);
      const now = await activeClusters(w.namespace, p.pod);
      expect({ pod: p.pod, active: now }).toEqual({ pod: p.pod, active: p.clusters.predicted });
      // Istio's rules, written out independently, give the same number ...
      expect(now).toBe(expectedActive(pod, rawMeshOf(h.sim), egress));
      // ... which is exactly one destination port (no subsets here) more than without the VS
      expect(now).toBe(expectedActive(pod, rawMeshOf(h.sim, false), egress) + 1);
      after += now ?? 0;
    }
    expect(after).toBe(proposal.clustersAfter);

    // asked again, meshdx models what the proxies report and cuts nothing off
    const again = await computeScoping(scopingDeps(baseRuntimeFor()));
    for (const w of again.report.workloads.filter((x) => x.namespace === ns)) {
      if (!proposal.workloads.includes(workloadNameKey(w.namespace, w.name))) continue;
      expect(w.sidecar).toMatchObject({ source: 'namespace', name: proposal.name });
      expect(w.cutOff).not.toContain(host);
      for (const p of w.proxies)
        expect({ pod: p.pod, modelled: p.clusters.modelled }).toEqual({
          pod: p.pod,
          modelled: p.measuredActive,
        });
    }
  }, 90_000);
});
