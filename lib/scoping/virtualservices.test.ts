import { describe, it, expect } from 'vitest';
import type { Pod, Service, ServiceEntry, Sidecar, VirtualService } from '../kube/types';
import {
  listenerImportsVs,
  prepareVirtualService,
  virtualServiceDestinations,
} from './virtualservices';
import { parseEgressHosts } from './hosts';
import { visibleServices } from './visibility';

const REVIEWS = 'reviews.back.svc.cluster.local';

function pod(name: string, namespace: string): Pod {
  return { metadata: { name, namespace, labels: { app: name } }, spec: { containers: [] } };
}

function svc(name: string, namespace: string, ports: number[]): Service {
  return {
    kind: 'Service',
    metadata: { name, namespace },
    spec: { ports: ports.map((port) => ({ port, name: `http-${port}` })) },
  };
}

function sidecar(namespace: string, hosts: string[], port?: number): Sidecar {
  return {
    kind: 'Sidecar',
    metadata: { name: 'default', namespace },
    spec: { egress: [{ hosts, ...(port ? { port: { number: port } } : {}) }] },
  };
}

function vs(
  name: string,
  namespace: string,
  hosts: string[],
  dest: { host: string; port?: number }[],
  extra: Partial<VirtualService['spec']> & Record<string, unknown> = {},
): VirtualService {
  return {
    kind: 'VirtualService',
    metadata: { name, namespace },
    spec: {
      hosts,
      http: [
        {
          route: dest.map((d) => ({
            destination: { host: d.host, ...(d.port ? { port: { number: d.port } } : {}) },
          })),
        },
      ],
      ...extra,
    },
  };
}

const services = [
  svc('web', 'front', [8080]),
  svc('reviews', 'back', [9080, 9090]),
  svc('ratings', 'back', [9080]),
  svc('istiod', 'istio-system', [15010]),
];
const scoped = [sidecar('front', ['./*', 'istio-system/*'])];
const ports = (r: ReturnType<typeof visibleServices>, host: string) =>
  r.services.find((s) => s.hostname === host)?.ports.map((p) => p.port);

describe('VirtualService destinations join the Sidecar scope (istiod collectImportedServices)', () => {
  const route = vs('to-reviews', 'front', ['web'], [{ host: REVIEWS, port: 9080 }]);

  it('a VirtualService in an imported namespace makes its destination port visible', () => {
    const without = visibleServices(pod('web', 'front'), services, [], scoped);
    expect(ports(without, REVIEWS)).toBeUndefined();
    const r = visibleServices(pod('web', 'front'), services, [], scoped, 'istio-system', {
      virtualServices: [route],
    });
    expect(ports(r, REVIEWS)).toEqual([9080]);
    // only the routed host: ratings (same namespace, not routed to) stays out
    expect(ports(r, 'ratings.back.svc.cluster.local')).toBeUndefined();
    expect(r.virtualServices).toEqual([{ namespace: 'front', name: 'to-reviews' }]);
    expect([...r.viaVirtualService.entries()]).toEqual([
      [REVIEWS, [{ namespace: 'front', name: 'to-reviews' }]],
    ]);
  });

  it('a destination without a port brings every port; short names resolve in the VS namespace', () => {
    const short = vs('r', 'back', ['reviews'], [{ host: 'reviews' }]);
    const r = visibleServices(
      pod('web', 'front'),
      services,
      [],
      [sidecar('front', ['./*', 'back/reviews.back.svc.cluster.local'])],
      'istio-system',
      { virtualServices: [short] },
    );
    expect(ports(r, REVIEWS)).toEqual([9080, 9090]);
    // selected by an egress host: not "via" the VirtualService
    expect(r.viaVirtualService.size).toBe(0);
  });

  it('adds nothing from a VirtualService the listener does not import', () => {
    const notImported = vs('r', 'other2', ['web.other2.svc.cluster.local'], [{ host: REVIEWS }]);
    const gatewayOnly = vs('g', 'front', ['web'], [{ host: REVIEWS }], { gateways: ['ingress'] });
    const notExported = vs('h', 'other', ['*'], [{ host: REVIEWS }], { exportTo: ['.'] });
    const r = visibleServices(
      pod('web', 'front'),
      services,
      [],
      [sidecar('front', ['./*', 'other/*'])],
      'istio-system',
      { virtualServices: [notImported, gatewayOnly, notExported] },
    );
    expect(ports(r, REVIEWS)).toBeUndefined();
    expect(r.virtualServices).toEqual([]);
  });

  it('a listener with a port keeps only that port of the destination', () => {
    const all = vs('r', 'front', ['web'], [{ host: REVIEWS }]);
    const r = visibleServices(
      pod('web', 'front'),
      services,
      [],
      [sidecar('front', ['./*'], 9090)],
      'istio-system',
      { virtualServices: [all] },
    );
    expect(ports(r, REVIEWS)).toEqual([9090]);
    expect(ports(r, 'web.front.svc.cluster.local')).toBeUndefined();
  });

  it('destination ports that the service lacks add nothing', () => {
    const wrong = vs('r', 'front', ['web'], [{ host: REVIEWS, port: 7000 }]);
    const r = visibleServices(pod('web', 'front'), services, [], scoped, 'istio-system', {
      virtualServices: [wrong],
    });
    expect(ports(r, REVIEWS)).toBeUndefined();
  });

  it('picks the proxy namespace for a shared hostname, else the first exporting namespace by name', () => {
    const se = (namespace: string, port: number, exportTo?: string[]): ServiceEntry => ({
      kind: 'ServiceEntry',
      metadata: { name: 'ext', namespace },
      spec: { hosts: ['api.example.com'], ports: [{ number: port, name: 'https' }], exportTo },
    });
    const entries = [se('zeta', 443), se('beta', 8443, ['.']), se('gamma', 9443)];
    const route = vs('r', 'front', ['web'], [{ host: 'api.example.com' }]);
    const fromFront = visibleServices(
      pod('web', 'front'),
      services,
      entries,
      scoped,
      'istio-system',
      {
        virtualServices: [route],
      },
    );
    const ext = fromFront.services.find((s) => s.hostname === 'api.example.com');
    expect([ext?.namespace, ext?.ports.map((p) => p.port)]).toEqual(['gamma', [9443]]);
    const own = [...entries, se('front', 1443)];
    const fromOwn = visibleServices(pod('web', 'front'), services, own, scoped, 'istio-system', {
      virtualServices: [route],
    });
    expect(fromOwn.services.find((s) => s.hostname === 'api.example.com')?.namespace).toBe('front');
  });

  it('reads mirrors, tcp and tls routes, and skips http routes for other source namespaces', () => {
    const v = prepareVirtualService({
      kind: 'VirtualService',
      metadata: { name: 'm', namespace: 'front' },
      spec: {
        hosts: ['web'],
        http: [
          {
            match: [{ sourceNamespace: 'other' }],
            route: [{ destination: { host: 'a' } }],
          },
          {
            route: [{ destination: { host: 'b', port: { number: 80 } } }],
            mirror: { host: 'c.x.svc.cluster.local' },
            mirrors: [{ destination: { host: 'd', port: { number: 81 } } }],
          },
        ],
        tcp: [{ route: [{ destination: { host: 'e', port: { number: 5432 } } }] }],
        tls: [{ route: [{ destination: { host: 'f' } }] }],
      } as unknown as VirtualService['spec'],
    });
    const d = virtualServiceDestinations(v, 'front');
    expect(Object.fromEntries([...d].map(([h, p]) => [h, [...p]]))).toEqual({
      'b.front.svc.cluster.local': [80],
      'c.x.svc.cluster.local': [0],
      'd.front.svc.cluster.local': [81],
      'e.front.svc.cluster.local': [5432],
      'f.front.svc.cluster.local': [0],
    });
    expect(virtualServiceDestinations(v, 'other').has('a.front.svc.cluster.local')).toBe(true);
  });

  it('imports a VirtualService whose hosts overlap an egress host of its namespace', () => {
    const v = prepareVirtualService(vs('w', 'edge', ['*.example.com'], [{ host: REVIEWS }]));
    const hosts = (list: string[]) => parseEgressHosts(list).hosts;
    expect(listenerImportsVs(hosts(['edge/api.example.com']), 'front', v)).toBe(true);
    expect(listenerImportsVs(hosts(['*/*.com']), 'front', v)).toBe(true);
    expect(listenerImportsVs(hosts(['edge/api.example.org']), 'front', v)).toBe(false);
    expect(listenerImportsVs(hosts(['./*']), 'front', v)).toBe(false);
    expect(listenerImportsVs(hosts(['./*']), 'edge', v)).toBe(true);
    expect(listenerImportsVs(hosts(['~/*']), 'edge', v)).toBe(false);
  });
});
