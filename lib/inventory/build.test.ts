import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { analyzerPods, readFixture } from '../../test-support/fixtures';
import type { Namespace, Pod, Service, Sidecar } from '../kube/types';
import { buildInventory, podRow } from './build';
import { proxyOf } from './proxy';

// the injector's output files end with a '---' separator: take the first document
const pod = (file: string) =>
  parseAllDocuments(readFixture('pods', file))
    .map((d) => d.toJS() as Pod | null)
    .find((d) => d !== null) as Pod;

describe('proxyOf on real injector output', () => {
  it('finds the native sidecar (initContainers, restartPolicy Always)', () => {
    expect(proxyOf(pod('injected_native-sidecar.yaml')).placement).toBe('native-sidecar');
    expect(proxyOf(pod('injected_pod.yaml')).placement).toBe('native-sidecar');
  });
  it('finds the classic sidecar when native is opted out', () => {
    const p = pod('injected_native-sidecar-opt-out.yaml');
    expect(p.spec.containers.map((c) => c.name)).toContain('istio-proxy');
    expect(proxyOf(p).placement).toBe('sidecar');
  });
  it('sees no proxy in kube-dns (a "sidecar" container that is not istio-proxy)', () => {
    expect(proxyOf(pod('kube-dns_pod_with_status.yaml')).placement).toBe('none');
  });
  it('recognises gateways by the router argument', () => {
    const gw: Pod = {
      metadata: { name: 'istio-ingressgateway-abc', namespace: 'istio-system' },
      spec: { containers: [{ name: 'istio-proxy', args: ['proxy', 'router', '--domain'] }] },
    };
    expect(proxyOf(gw).placement).toBe('gateway');
  });
});

describe('buildInventory', () => {
  it('counts per namespace and keeps pods without status', () => {
    const pods = [
      pod('injected_native-sidecar.yaml'),
      pod('kube-dns_pod_with_status.yaml'),
      pod('injected_native-sidecar-opt-out.yaml'),
    ];
    const namespaces: Namespace[] = [
      { metadata: { name: 'default', labels: { 'istio-injection': 'enabled' } } },
      { metadata: { name: 'kube-system' } },
      { metadata: { name: 'canary', labels: { 'istio.io/rev': '1-24' } } },
    ];
    const services: Service[] = [{ metadata: { name: 'x', namespace: 'default' }, spec: {} }];
    const sidecars: Sidecar[] = [
      {
        metadata: { name: 'default', namespace: 'default' },
        spec: { egress: [{ hosts: ['./*'] }] },
      },
    ];
    const inv = buildInventory({
      namespaces,
      pods,
      services,
      sidecars,
      destinationRules: 0,
      virtualServices: 0,
      serviceEntries: 0,
      now: new Date(0),
    });
    const byName = Object.fromEntries(inv.namespaces.map((n) => [n.name, n]));
    const nsOf = (p: Pod) => p.metadata.namespace ?? '';
    const defaultPods = pods.filter((p) => nsOf(p) === 'default').length;
    expect(byName['default']?.pods).toBe(defaultPods);
    expect(byName['default']?.injection).toBe('enabled');
    expect(byName['default']?.defaultSidecar).toBe(true);
    expect(byName['canary']?.injection).toBe('revision');
    expect(inv.totals.pods).toBe(3);
    expect(inv.totals.meshedPods).toBe(2);
    const dns = inv.pods.find((p) => p.name.startsWith('kube-dns'));
    expect(dns?.containers.map((c) => c.name)).toEqual(
      pod('kube-dns_pod_with_status.yaml').spec.containers.map((c) => c.name),
    );
    expect(dns?.containers.map((c) => c.name)).toContain('sidecar');
    expect(dns?.podIP).toBe(pod('kube-dns_pod_with_status.yaml').status?.podIP ?? null);
  });

  it('reads container states from status', () => {
    const row = podRow(pod('kube-dns_pod_with_status.yaml'));
    const raw = pod('kube-dns_pod_with_status.yaml').status?.containerStatuses ?? [];
    for (const c of row.containers) {
      const s = raw.find((x) => x.name === c.name);
      expect(c.restarts).toBe(s?.restartCount ?? 0);
      expect(c.ready).toBe(s?.ready ?? false);
    }
  });
});

describe('buildInventory on a malformed pod', () => {
  it('takes a pod without spec (Istio’s gateway-secrets analyzer data) as a row with no containers', () => {
    const [bare] = analyzerPods('gateway-secrets.yaml');
    expect(bare?.spec).toBeUndefined();
    const withNs = { ...bare, metadata: { ...bare!.metadata, namespace: 'default' } } as Pod;
    const odd = {
      metadata: { name: 'odd', namespace: 'default' },
      spec: { containers: 'istio-proxy' },
    } as unknown as Pod;
    const meshed = pod('injected_native-sidecar.yaml');
    const inv = buildInventory({
      namespaces: [{ metadata: { name: 'default' } }],
      pods: [withNs, odd, { ...meshed, metadata: { ...meshed.metadata, namespace: 'default' } }],
      services: [],
      sidecars: [],
      destinationRules: 0,
      virtualServices: 0,
      serviceEntries: 0,
      now: new Date(0),
    });
    const rows = Object.fromEntries(inv.pods.map((r) => [r.name, r]));
    expect(rows['custom-gateway']).toMatchObject({ containers: [], node: null });
    expect(rows['custom-gateway']?.proxy.placement).toBe('none');
    expect(rows['odd']?.containers).toEqual([]);
    // the well-formed pod beside them is counted as ever
    expect(inv.namespaces.find((n) => n.name === 'default')).toMatchObject({
      pods: 3,
      meshedPods: 1,
    });
  });
});
