import { describe, expect, it } from 'vitest';
import type { Pod, Service, ServiceEntry, Sidecar, VirtualService } from '../../../lib/kube/types';
import { createPushContext } from './istio-model/push-context';
import type { SimService } from './istio-model/service-registry';
import { convertToSidecarScope, hostSubsetOf } from './sidecar-scope';
import { makePod, makeService, makeSidecar } from './testworld';

const pod = makePod('web-1', 'shop', '10.0.0.1', { labels: { app: 'web' } });
const services = [
  makeService('web', 'shop', [{ port: 80, name: 'http' }]),
  makeService('cart', 'shop', [
    { port: 80, name: 'http' },
    { port: 9090, name: 'grpc' },
  ]),
  makeService('istiod', 'istio-system', [{ port: 15012, name: 'https' }]),
  makeService('pay', 'money', [{ port: 8080, name: 'http' }]),
  makeService('ledger', 'money', [{ port: 8080, name: 'http' }]),
];

function entry(name: string, ns: string, hosts: string[], exportTo?: string[]): ServiceEntry {
  return {
    kind: 'ServiceEntry',
    metadata: { name, namespace: ns },
    spec: { hosts, ports: [{ number: 443, name: 'tls', protocol: 'TLS' }], exportTo },
  };
}

/** The Sidecar istiod applies to the pod, null when none does. */
function sidecarFor(p: Pod, sidecars: Sidecar[], rootNamespace: string): Sidecar | null {
  return createPushContext({
    services: [],
    serviceEntries: [],
    virtualServices: [],
    sidecars,
    rootNamespace,
  }).sidecarFor(p.metadata.namespace ?? 'default', p.metadata.labels ?? {});
}

/** The services of the SidecarScope `sidecar` gives proxies of `ns`. */
function scopeServices(
  ns: string,
  sidecar: Sidecar | undefined,
  input: {
    services: Service[];
    serviceEntries: ServiceEntry[];
    virtualServices: VirtualService[];
  },
): SimService[] {
  const push = createPushContext({ ...input, sidecars: [], rootNamespace: 'istio-system' });
  return convertToSidecarScope(push, sidecar, ns).services;
}

function visible(
  sidecar: Sidecar | undefined,
  extra: { serviceEntries?: ServiceEntry[]; virtualServices?: VirtualService[] } = {},
  ns = 'shop',
): string[] {
  return scopeServices(ns, sidecar, {
    services,
    serviceEntries: extra.serviceEntries ?? [],
    virtualServices: extra.virtualServices ?? [],
  })
    .flatMap((s) => s.ports.map((p) => `${s.hostname}:${p.port}`))
    .sort();
}

describe('the simulator picks the Sidecar istiod would', () => {
  const older = { creationTimestamp: '2024-01-01T00:00:00Z' };
  it('workloadSelector over namespace default over root default', () => {
    const root = makeSidecar('default', 'istio-system', ['*/*']);
    const nsDefault = makeSidecar('default', 'shop', ['./*']);
    const forWeb = makeSidecar('web', 'shop', ['./*'], { app: 'web' });
    const forOther = makeSidecar('api', 'shop', ['./*'], { app: 'api' });
    expect(sidecarFor(pod, [root], 'istio-system')).toBe(root);
    expect(sidecarFor(pod, [root, nsDefault, forOther], 'istio-system')).toBe(nsDefault);
    expect(sidecarFor(pod, [root, nsDefault, forWeb], 'istio-system')).toBe(forWeb);
    // a selector in the root namespace is not the mesh default
    const rootSel = makeSidecar('sel', 'istio-system', ['*/*'], { app: 'web' });
    expect(sidecarFor(pod, [rootSel], 'istio-system')).toBeNull();
  });

  it('the oldest of two namespace defaults wins', () => {
    const a = makeSidecar('b-new', 'shop', ['./*']);
    const b = {
      ...makeSidecar('z-old', 'shop', ['~/*']),
      metadata: { ...older, name: 'z-old', namespace: 'shop' },
    };
    expect(sidecarFor(pod, [a, b], 'istio-system')?.metadata.name).toBe('z-old');
  });
});

describe('the simulator imports hosts as istiod would', () => {
  it('host subset rules of host.Name.SubsetOf', () => {
    expect(hostSubsetOf('a.foo.com', '*.foo.com')).toBe(true);
    expect(hostSubsetOf('a.b.foo.com', '*.foo.com')).toBe(true);
    expect(hostSubsetOf('foo.com', '*.foo.com')).toBe(false);
    expect(hostSubsetOf('*.foo.com', '*')).toBe(true);
    expect(hostSubsetOf('*.b.foo.com', '*.foo.com')).toBe(true);
    expect(hostSubsetOf('*.foo.com', 'bar.foo.com')).toBe(false);
  });

  it('no Sidecar: every exported service port', () => {
    expect(visible(undefined)).toHaveLength(6);
  });

  it('`.`, named namespaces, `~` and exact names', () => {
    expect(visible(makeSidecar('default', 'shop', ['./*']))).toEqual([
      'cart.shop.svc.cluster.local:80',
      'cart.shop.svc.cluster.local:9090',
      'web.shop.svc.cluster.local:80',
    ]);
    expect(visible(makeSidecar('default', 'shop', ['~/*']))).toEqual([]);
    expect(visible(makeSidecar('default', 'shop', ['money/pay.money.svc.cluster.local']))).toEqual([
      'pay.money.svc.cluster.local:8080',
    ]);
    expect(visible(makeSidecar('default', 'shop', ['*/*.money.svc.cluster.local']))).toEqual([
      'ledger.money.svc.cluster.local:8080',
      'pay.money.svc.cluster.local:8080',
    ]);
    // a root default's `.` is the proxy's namespace
    expect(visible(makeSidecar('default', 'istio-system', ['./*']))).toHaveLength(3);
  });

  it('exclusions of Istio 1.31: ~ns/*, ~ns/host and ~/host drop what the others import', () => {
    const all = visible(undefined);
    expect(visible(makeSidecar('default', 'shop', ['*/*', '~money/*']))).toEqual(
      all.filter((h) => !h.includes('.money.')),
    );
    expect(
      visible(makeSidecar('default', 'shop', ['*/*', '~money/pay.money.svc.cluster.local'])),
    ).toEqual(all.filter((h) => !h.startsWith('pay.money.')));
    expect(
      visible(makeSidecar('default', 'shop', ['*/*', '~/web.shop.svc.cluster.local'])),
    ).toEqual(all.filter((h) => !h.startsWith('web.shop.')));
    // a namespace's exclusion does not reach a host of another namespace
    expect(
      visible(makeSidecar('default', 'shop', ['*/*', '~shop/pay.money.svc.cluster.local'])),
    ).toEqual(all);
    expect(visible(makeSidecar('default', 'shop', ['~money/*']))).toEqual([]);
  });

  it('a listener with a port keeps that port only', () => {
    const sc = makeSidecar('default', 'shop', []);
    sc.spec.egress = [{ port: { number: 9090, protocol: 'GRPC', name: 'grpc' }, hosts: ['./*'] }];
    expect(visible(sc)).toEqual(['cart.shop.svc.cluster.local:9090']);
  });

  it('exportTo on Services and ServiceEntries', () => {
    const hidden = makeService('secret', 'money', [{ port: 1, name: 'tcp' }]);
    hidden.metadata.annotations = { 'networking.istio.io/exportTo': '.' };
    const out = scopeServices('shop', undefined, {
      services: [hidden],
      serviceEntries: [
        entry('ext', 'money', ['api.ext.com'], ['shop']),
        entry('x', 'money', ['x.com'], ['~']),
      ],
      virtualServices: [],
    });
    expect(out.map((s) => s.hostname)).toEqual(['api.ext.com']);
  });

  it('a wildcard ServiceEntry host needs a wildcard egress host that covers it', () => {
    const se = entry('foo', 'ext', ['*.foo.com']);
    const exact = makeSidecar('default', 'shop', ['ext/bar.foo.com']);
    expect(visible(exact, { serviceEntries: [se] })).toEqual([]);
    const wild = makeSidecar('default', 'shop', ['ext/*.foo.com']);
    expect(visible(wild, { serviceEntries: [se] })).toEqual(['*.foo.com:443']);
  });

  it('adds the destinations of the VirtualServices it imports', () => {
    const vs: VirtualService = {
      kind: 'VirtualService',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        hosts: ['web'],
        http: [
          {
            route: [
              { destination: { host: 'pay.money.svc.cluster.local', port: { number: 8080 } } },
            ],
          },
        ],
      },
    };
    const sc = makeSidecar('default', 'shop', ['./*']);
    expect(visible(sc, { virtualServices: [vs] })).toContain('pay.money.svc.cluster.local:8080');
    // bound to a gateway only: not imported
    const gw = { ...vs, spec: { ...vs.spec, gateways: ['shop/gw'] } };
    expect(visible(sc, { virtualServices: [gw] })).not.toContain(
      'pay.money.svc.cluster.local:8080',
    );
    // a VirtualService in a namespace the Sidecar does not import is not followed
    const elsewhere = { ...vs, metadata: { name: 'web', namespace: 'other' } };
    expect(visible(sc, { virtualServices: [elsewhere] })).toHaveLength(3);
  });
});

describe('the ServiceIndex and SidecarScope rules of istiod the simulator plays', () => {
  const vsTo = (name: string, http: unknown[]): VirtualService => ({
    kind: 'VirtualService',
    metadata: { name, namespace: 'shop' },
    spec: { hosts: ['web'], http } as VirtualService['spec'],
  });

  it('files a Service whose exportTo holds `~` nowhere, whatever else it names', () => {
    const odd = makeService('odd', 'money', [{ port: 7, name: 'tcp' }]);
    odd.metadata.annotations = { 'networking.istio.io/exportTo': '~, shop' };
    const out = scopeServices('shop', undefined, {
      services: [odd],
      serviceEntries: [],
      virtualServices: [],
    });
    expect(out).toEqual([]);
  });

  it('lets a Kubernetes Service take its hostname from a ServiceEntry', () => {
    const squat = entry('squat', 'shop', ['web.shop.svc.cluster.local']);
    const out = scopeServices('shop', undefined, {
      services,
      serviceEntries: [squat],
      virtualServices: [],
    }).filter((s) => s.hostname === 'web.shop.svc.cluster.local');
    expect(out.map((s) => [s.registry, s.ports.map((p) => p.port)])).toEqual([
      ['Kubernetes', [80]],
    ]);
  });

  it('follows mirrors, and skips routes matched to other source namespaces', () => {
    const sc = makeSidecar('default', 'shop', ['./*']);
    const mirrored = vsTo('mirror', [
      {
        route: [{ destination: { host: 'web' } }],
        mirror: { host: 'ledger.money.svc.cluster.local', port: { number: 8080 } },
      },
    ]);
    expect(visible(sc, { virtualServices: [mirrored] })).toContain(
      'ledger.money.svc.cluster.local:8080',
    );
    const elsewhere = vsTo('by-source', [
      {
        match: [{ sourceNamespace: 'other' }],
        route: [{ destination: { host: 'pay.money.svc.cluster.local' } }],
      },
    ]);
    expect(visible(sc, { virtualServices: [elsewhere] })).not.toContain(
      'pay.money.svc.cluster.local:8080',
    );
    const here = vsTo('by-source', [
      {
        match: [{ sourceNamespace: 'other' }, { sourceNamespace: 'shop' }],
        route: [{ destination: { host: 'pay.money.svc.cluster.local' } }],
      },
    ]);
    expect(visible(sc, { virtualServices: [here] })).toContain('pay.money.svc.cluster.local:8080');
  });
});
