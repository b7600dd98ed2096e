import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { buildInventory } from '../inventory/build';
import type { Namespace, Pod, Sidecar } from '../kube/types';
import { inventoryFindings } from './inventory';

/** The injector's real output for a sidecar pod (its first document), put in `namespace`. */
function injected(namespace: string, name: string): Pod {
  const p = parseAllDocuments(readFixture('pods', 'injected_pod.yaml'))
    .map((d) => d.toJS() as Pod | null)
    .find((d) => d !== null) as Pod;
  return { ...p, metadata: { ...p.metadata, namespace, name } };
}

/** A gateway as Istio's gateway injection template runs it: the proxy is the workload. */
function gateway(namespace: string, name: string): Pod {
  return {
    metadata: { namespace, name, labels: { istio: 'ingressgateway' } },
    spec: {
      containers: [
        {
          name: 'istio-proxy',
          image: 'docker.io/istio/proxyv2:1.24.2',
          args: ['proxy', 'router', '--domain', '$(POD_NAMESPACE).svc.cluster.local'],
        },
      ],
    },
  };
}

function findingsOf(
  namespaces: string[],
  pods: Pod[],
  sidecars: Sidecar[] = [],
  rootNamespace?: string,
) {
  const inv = buildInventory({
    rootNamespace,
    namespaces: namespaces.map((name): Namespace => ({ metadata: { name } })),
    pods,
    services: [],
    sidecars,
    destinationRules: 0,
    virtualServices: 0,
    serviceEntries: 0,
    now: new Date(0),
  });
  return { inv, findings: inventoryFindings(inv, inv.rootNamespace) };
}

const withoutDefault = (f: ReturnType<typeof findingsOf>['findings']) =>
  f.filter((x) => x.code === 'MDX0301').map((x) => x.subject.name);

describe('inventoryFindings: namespaces without a default Sidecar', () => {
  it('names a namespace of sidecars, not one of gateways only (Sidecars do not apply to them)', () => {
    const { inv, findings } = findingsOf(
      ['istio-ingress', 'shop'],
      [gateway('istio-ingress', 'istio-ingressgateway-1'), injected('shop', 'web-1')],
    );
    const byName = Object.fromEntries(inv.namespaces.map((n) => [n.name, n]));
    expect(byName['istio-ingress']).toMatchObject({ meshedPods: 1, sidecarPods: 0 });
    expect(byName['shop']).toMatchObject({ meshedPods: 1, sidecarPods: 1 });
    expect(withoutDefault(findings)).toEqual(['shop']);
    expect(findings.find((f) => f.code === 'MDX0301')?.evidence).toMatchObject({
      sidecarPods: 1,
    });
  });

  it('names none when the root namespace holds a default for the whole mesh', () => {
    const mesh: Sidecar = { metadata: { namespace: 'istio-system', name: 'default' }, spec: {} };
    const { findings } = findingsOf(['istio-system', 'shop'], [injected('shop', 'web-1')], [mesh]);
    expect(withoutDefault(findings)).toEqual([]);
  });

  it('takes the root namespace meshdx is given (MESHDX_ISTIO_NAMESPACE), istio-system by default', () => {
    const mesh: Sidecar = { metadata: { namespace: 'istio', name: 'default' }, spec: {} };
    const pods = [injected('shop', 'web-1')];
    const given = findingsOf(['istio', 'shop'], pods, [mesh], 'istio');
    expect(given.inv.rootNamespace).toBe('istio');
    expect(withoutDefault(given.findings)).toEqual([]);
    const usual = findingsOf(['istio', 'shop'], pods, [mesh]);
    expect(usual.inv.rootNamespace).toBe('istio-system');
    expect(withoutDefault(usual.findings)).toEqual(['shop']);
  });

  it("proposes a Sidecar that names istiod's namespace and says the calls out were not measured", () => {
    const inv = findingsOf(
      ['mesh-root', 'istio-system', 'shop'],
      [injected('shop', 'web-1')],
      [],
      'mesh-root',
    ).inv;
    const f = inventoryFindings(inv, 'mesh-root', 'istio-system').find((x) => x.code === 'MDX0301');
    expect(f?.evidence).toMatchObject({ traffic: 'not measured' });
    expect(f?.evidence).not.toHaveProperty('callsOut');
    expect(f?.fix?.why).toMatch(/were not measured.*503 NR/);
    const sidecar = parseAllDocuments(f?.fix?.yaml ?? '')[0]?.toJSON() as Sidecar;
    expect(sidecar.metadata.namespace).toBe('shop');
    expect(sidecar.spec.egress?.[0]?.hosts).toEqual(['./*', 'istio-system/*']);
  });
});
