import { describe, expect, it } from 'vitest';
import type { VirtualService } from '../kube/types';
import { hostNameMatches, screenGateway, vsHostInGateways } from './gateway-hosts';
import { virtualServiceGatewayFindings } from './references';

describe('hostNameMatches (Istio host.Name.Matches)', () => {
  it.each([
    ['foo.com', 'foo.com', true],
    ['foo.com', 'bar.com', false],
    ['*.com', 'foo.com', true],
    ['bar.com', '*.com', true],
    ['*.foo.com', 'foo.com', false],
    ['*', 'foo.com', true],
    ['*', '*.com', true],
    ['*.com', '*.foo.com', true],
    ['*.foo.com', '*.bar.com', false],
  ])('%s and %s: %s', (a, b, want) => {
    expect(hostNameMatches(a, b)).toBe(want);
    expect(hostNameMatches(b, a)).toBe(want);
  });
});

const istioGw = (servers: unknown, ns = 'edge') =>
  screenGateway(
    { apiVersion: 'networking.istio.io/v1', kind: 'Gateway', spec: { servers } },
    `${ns}/gw`,
    ns,
  );

describe('the hosts a Gateway serves to a namespace', () => {
  it('reads ns/host, ./host and */host as istioctl does', () => {
    const gw = istioGw([{ hosts: ['shop/a.com', './b.com', '*/c.com', 'd.com'] }]);
    expect(vsHostInGateways([gw], ['a.com'], 'shop')).toBe(true);
    expect(vsHostInGateways([gw], ['a.com'], 'other')).toBe(false);
    // ./ is the Gateway's own namespace
    expect(vsHostInGateways([gw], ['b.com'], 'edge')).toBe(true);
    expect(vsHostInGateways([gw], ['b.com'], 'shop')).toBe(false);
    expect(vsHostInGateways([gw], ['c.com'], 'shop')).toBe(true);
    expect(vsHostInGateways([gw], ['d.com'], 'shop')).toBe(true);
    expect(vsHostInGateways([gw], ['e.com'], 'shop')).toBe(false);
  });

  it('*/* makes a server take every host', () => {
    const gw = istioGw([{ hosts: ['shop/a.com', '*/*'] }]);
    expect(vsHostInGateways([gw], ['anything.io'], 'other')).toBe(true);
  });

  it('a Gateway API listener without hostname takes every host; with one, its suffix', () => {
    const api = (listeners: unknown) =>
      screenGateway(
        { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', spec: { listeners } },
        'edge/gw',
        'edge',
      );
    expect(vsHostInGateways([api([{ name: 'http' }])], ['x.io'], 'shop')).toBe(true);
    expect(vsHostInGateways([api([{ hostname: '*.example.com' }])], ['a.example.com'], 's')).toBe(
      true,
    );
    expect(vsHostInGateways([api([{ hostname: 'a.example.com' }])], ['b.example.com'], 's')).toBe(
      false,
    );
  });

  it('no Gateway of the key serves nothing; hosts of another shape are unreadable', () => {
    expect(vsHostInGateways([], ['a.com'], 'shop')).toBe(false);
    expect(istioGw({ hosts: ['a.com'] }).unreadable).toBe('spec.servers is not a list');
  });
});

describe('virtualServiceGatewayFindings', () => {
  const vs: VirtualService = {
    kind: 'VirtualService',
    metadata: { name: 'web', namespace: 'shop' },
    spec: { hosts: ['www.example.com'], gateways: ['edge/gw', 'mesh'] },
  };

  it('is IST0132 for a Gateway that serves none of the hosts, IST0101 too when there is none', () => {
    const served = istioGw([{ hosts: ['*/shop.example.com'] }]);
    expect(virtualServiceGatewayFindings([vs], [served]).map((f) => f.code)).toEqual(['IST0132']);
    expect(virtualServiceGatewayFindings([vs], []).map((f) => f.code)).toEqual([
      'IST0101',
      'IST0132',
    ]);
  });

  it('says nothing when the Gateways could not be read, or their hosts cannot be', () => {
    expect(virtualServiceGatewayFindings([vs], [], 'gateways: 403 forbidden')).toEqual([]);
    expect(virtualServiceGatewayFindings([vs], [istioGw({ hosts: [] })])).toEqual([]);
  });
});
