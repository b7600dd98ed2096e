/**
 * Scoping's per-proxy cluster model (lib/scoping) against the clusters the simulated proxies
 * report (server/sim, which builds them from its own model of istiod), on small meshes that each
 * exercise one of Istio's rules. The two are written apart, so where they differ one of them reads
 * Istio wrong; each case names the istio/istio code that decides it.
 */
import { describe, expect, it } from 'vitest';
import type { DestinationRule, Pod, Service, Sidecar } from '../../lib/kube/types';
import { podProxy } from '../../lib/dataplane/proxy-container';
import { inboundClusterKeys } from '../../lib/scoping/inbound';
import { proxyVersionOf } from '../../lib/scoping/proxy';
import { buildMeshModel, createScopeResolver } from '../../lib/scoping/scopes';
import { createMeshEmulator } from '../../server/sim/mesh';
import {
  bookinfo,
  makeDestinationRule,
  makePod,
  makeService,
  makeSidecar,
  worldOf,
  type WorldObjects,
} from '../../server/sim/mesh/testworld';
import { podKeyOfObject } from '../../lib/refs/pod-ref';
import { buildScopingReport } from '../../lib/scoping/report';
import { applyGenerated, inputOf, traffic, world } from '../../test-support/scoping-world';

/** Service clusters (outbound + inbound) the simulated proxy reports in its config_dump. */
function simulated(w: WorldObjects, pod: Pod): number {
  const r = createMeshEmulator(worldOf(w)).podHttp(
    pod,
    15000,
    '/config_dump',
    new URLSearchParams('resource=dynamic_active_clusters&mask=cluster.name'),
  );
  expect(r.status).toBe(200);
  const body = JSON.parse(r.body) as { configs: { cluster: { name: string } }[] };
  return body.configs.filter((c) => /^(outbound|inbound)\|/.test(c.cluster.name)).length;
}

/** Scoping's model of the same proxy: its scope's outbound clusters plus its inbound ones. */
function predicted(w: WorldObjects, pod: Pod): number {
  const services = (w.services ?? []) as Service[];
  const model = buildMeshModel(
    services,
    [],
    (w.destinationrules ?? []) as DestinationRule[],
    'istio-system',
  );
  const scope = createScopeResolver(model, (w.sidecars ?? []) as Sidecar[]).scopeOf(pod);
  return scope.outbound + inboundClusterKeys(pod, services, proxyVersionOf(pod)).length;
}

function sidecarPods(w: WorldObjects): Pod[] {
  return ((w.pods ?? []) as Pod[]).filter((p) => podProxy(p)?.placement === 'sidecar');
}

function expectAgreement(w: WorldObjects): void {
  const pods = sidecarPods(w);
  expect(pods.length).toBeGreaterThan(0);
  for (const pod of pods) expect(predicted(w, pod), podKeyOfObject(pod)).toBe(simulated(w, pod));
}

describe('Scoping predicts the clusters the simulated proxies report', () => {
  it('on bookinfo (services, ports, DestinationRule subsets, inbound)', () => {
    expectAgreement(bookinfo());
  });

  it('drops what an exclusion names (Istio 1.31 ~ns/host, ~/host: selectServices)', () => {
    for (const hosts of [
      ['*/*', '~default/reviews.default.svc.cluster.local'],
      ['*/*', '~/ratings.default.svc.cluster.local'],
      ['./*', '~default/*'],
    ]) {
      const w = bookinfo();
      w.sidecars = [makeSidecar('default', 'default', hosts)];
      expectAgreement(w);
    }
  });

  it('serves exactly the clusters predicted for the proposed Sidecars with exclusions', () => {
    // the proposals Scoping makes for an istiod that reads ~ exclusions, applied as kubectl would
    const w = world();
    const istiod = ((w.pods ?? []) as Pod[]).find((p) => p.metadata.labels?.app === 'istiod');
    if (istiod)
      istiod.spec.containers = [{ name: 'discovery', image: 'docker.io/istio/pilot:1.31.0' }];
    const report = buildScopingReport(inputOf(w, traffic()));
    const proposed = report.generated.filter((g) => g.apply);
    expect(proposed.filter((g) => g.exclusions?.proposed).length).toBeGreaterThan(1);
    const applied = applyGenerated(
      w,
      proposed.map((g) => g.yaml),
    );
    expectAgreement(applied);
    // and the report's own per-proxy prediction is what the simulated proxy then reports
    for (const row of report.workloads.flatMap((r) => r.proxies)) {
      const pod = sidecarPods(applied).find((p) => p.metadata.name === row.pod);
      if (!pod) throw new Error(`no pod ${row.pod}`);
      expect(row.clusters.predicted - row.nonService, row.pod).toBe(simulated(applied, pod));
    }
  });

  it('merges two DestinationRules for one host in one namespace (mergeDestinationRule)', () => {
    const w = bookinfo();
    const extra = makeDestinationRule('reviews-canary', 'default', 'reviews', ['v4', 'v1']);
    extra.metadata.creationTimestamp = '2024-06-01T11:00:00Z';
    w.destinationrules = [...(w.destinationrules ?? []), extra];
    expectAgreement(w);
  });

  it('builds no outbound cluster for a UDP port (buildOutboundClusters skips protocol.UDP)', () => {
    const w = bookinfo();
    const dns = makeService('dns', 'default', [
      { port: 53, name: 'dns-tcp' },
      { port: 5353, name: 'mdns' },
    ]);
    const udp = dns.spec.ports?.[1];
    if (udp) udp.protocol = 'UDP';
    w.services = [...(w.services ?? []), dns];
    expectAgreement(w);
  });

  it('builds no cluster for an ExternalName Service (an alias since Istio 1.21)', () => {
    const w = bookinfo();
    const ext = makeService('payments', 'default', [{ port: 443, name: 'https' }]);
    ext.spec = {
      type: 'ExternalName',
      ports: ext.spec.ports,
      externalName: 'pay.example.com',
    } as Service['spec'];
    w.services = [...(w.services ?? []), ext];
    expectAgreement(w);
  });

  it('gives a root-namespace proxy the service namespace DestinationRule first', () => {
    const w = bookinfo();
    const root = makeDestinationRule(
      'reviews-root',
      'istio-system',
      'reviews.default.svc.cluster.local',
      ['r1'],
    );
    w.destinationrules = [...(w.destinationrules ?? []), root];
    w.pods = [
      ...(w.pods ?? []),
      makePod('toolbox-1', 'istio-system', '10.1.0.9', { labels: { app: 'toolbox' } }),
    ];
    expectAgreement(w);
  });

  it('gives no proxy elsewhere a Service exported only to its own namespace (exportTo `.`)', () => {
    const w = bookinfo();
    const local = makeService('vault', 'secrets', [{ port: 8200, name: 'http' }], {
      app: 'vault',
    });
    local.metadata.annotations = { 'networking.istio.io/exportTo': '.' };
    const shared = makeService('audit', 'secrets', [{ port: 9000, name: 'grpc' }], {
      app: 'audit',
    });
    shared.metadata.annotations = { 'networking.istio.io/exportTo': 'default' };
    w.services = [...(w.services ?? []), local, shared];
    w.pods = [
      ...(w.pods ?? []),
      makePod('vault-1', 'secrets', '10.1.0.10', { labels: { app: 'vault' } }),
    ];
    expectAgreement(w);
  });

  it('applies a workloadSelector DestinationRule to no proxy it does not select', () => {
    const w = bookinfo();
    const canary = makeDestinationRule('reviews-canary', 'default', 'reviews', ['canary', 'v9']);
    (canary.spec as { workloadSelector?: unknown }).workloadSelector = {
      matchLabels: { app: 'no-such-app' },
    };
    canary.metadata.creationTimestamp = '2024-01-01T00:00:00Z';
    w.destinationrules = [...(w.destinationrules ?? []), canary];
    expectAgreement(w);
  });
});
