import { describe, expect, it } from 'vitest';
import {
  EMPTY_LAYER_STATE,
  observeLayers,
  parseEndpointShardz,
  type LayerSample,
} from './layer-events';

/*
 * /debug/endpointShardz as istiod writes it (istio/istio pilot/pkg/model/endpointshards.go
 * Shardz: {hostname: {namespace: EndpointShards{Shards: {ShardKey: []*IstioEndpoint}}}};
 * IstioEndpoint in pilot/pkg/model/service.go: `Addresses` from 1.23 (dual stack), `Address`
 * before; HealthStatus 1 Healthy, 2 UnHealthy, 3 Draining, 4 Terminating).
 */
const NEW_GEN = {
  'payments.shop.svc.cluster.local': {
    shop: {
      Shards: {
        'Kubernetes/Kubernetes': [
          { Labels: null, Addresses: ['10.0.0.1'], ServicePortName: 'http', HealthStatus: 1 },
          { Labels: null, Addresses: ['10.0.0.2'], ServicePortName: 'http', HealthStatus: 4 },
        ],
      },
      ServiceAccounts: {},
    },
  },
  // one IP in two services: its worst health counts
  'payments-canary.shop.svc.cluster.local': {
    shop: {
      Shards: {
        'Kubernetes/Kubernetes': [{ Addresses: ['10.0.0.1'], HealthStatus: 2 }, { Addresses: [] }],
      },
    },
  },
};
const OLD_GEN = {
  'reviews.bookinfo.svc.cluster.local': {
    bookinfo: { Shards: { Kubernetes: [{ Address: '10.1.0.9', EndpointPort: 9080 }] } },
  },
};

describe('parseEndpointShardz', () => {
  it('reads both generations of the address and the worst health per IP', () => {
    const a = parseEndpointShardz(JSON.stringify(NEW_GEN));
    expect([...a.byIp]).toEqual([
      ['10.0.0.1', 'unhealthy'],
      ['10.0.0.2', 'terminating'],
    ]);
    expect(a.problem).toBe('endpointShardz: 1 entries without a readable address or shards');
    // before HealthStatus existed every endpoint istiod held was sent as healthy
    expect([...parseEndpointShardz(JSON.stringify(OLD_GEN)).byIp]).toEqual([
      ['10.1.0.9', 'healthy'],
    ]);
  });

  it('names a body that is not the shards', () => {
    expect(parseEndpointShardz('404 page not found').problem).toMatch(
      /^endpointShardz is not JSON/,
    );
    expect(parseEndpointShardz('[]').problem).toBe('endpointShardz is not an object of services');
  });
});

const T = Date.parse('2026-11-01T12:00:00Z');
function sample(at: number, p: Partial<LayerSample>): LayerSample {
  return { at, slices: new Map(), shards: new Map(), eds: new Map(), envoys: new Map(), ...p };
}

describe('observeLayers', () => {
  it('dates each change between two reads of its own layer, and nothing on a first read', () => {
    const s0 = sample(T, {
      slices: new Map([['10.0.0.1', { ready: true, terminating: false }]]),
      shards: new Map([['10.0.0.1', 'healthy']]),
      eds: new Map([['shop/checkout-1', { sent: 'n1', acked: 'n1' }]]),
      envoys: new Map([['shop/checkout-1', new Map([['10.0.0.1', 'healthy']])]]),
    });
    const a = observeLayers(EMPTY_LAYER_STATE, s0);
    expect(a.events).toEqual([]);
    const s1 = sample(T + 500, {
      slices: new Map([['10.0.0.1', { ready: false, terminating: true }]]),
      shards: new Map([['10.0.0.1', 'terminating']]),
      eds: new Map([['shop/checkout-1', { sent: 'n2', acked: 'n1' }]]),
      envoys: new Map([['shop/checkout-1', new Map([['10.0.0.1', '/failed_outlier_check']])]]),
    });
    const b = observeLayers(a.state, s1);
    expect(b.events.map((e) => [e.kind, e.at - T, e.since - T, e.ip, e.proxy, e.detail])).toEqual([
      ['slice-not-ready', 500, 0, '10.0.0.1', '', ''],
      ['shard-unhealthy', 500, 0, '10.0.0.1', '', ''],
      ['eds-sent', 500, 0, '', 'shop/checkout-1', 'n2'],
    ]);
    // the EndpointSlices could not be listed at +1 s: their last read stays, the problem is kept
    const s2 = sample(T + 1000, {
      slices: { problem: 'EndpointSlices not listed: 429' },
      shards: new Map(),
      eds: new Map([['shop/checkout-1', { sent: 'n2', acked: 'n2' }]]),
      envoys: new Map([['shop/checkout-1', new Map()]]),
    });
    const c = observeLayers(b.state, s2);
    expect(c.events.map((e) => [e.kind, e.at - T, e.detail])).toEqual([
      ['shard-dropped', 1000, ''],
      ['eds-acked', 1000, 'n2'],
      ['envoy-dropped', 1000, '/failed_outlier_check'],
    ]);
    expect(c.state.problems).toEqual({ endpointslice: 'EndpointSlices not listed: 429' });
    // read again at +2 s: the slice change is dated between its reads at +0.5 s and +2 s
    const d = observeLayers(c.state, sample(T + 2000, { slices: new Map() }));
    expect(d.events.map((e) => [e.kind, e.since - T, e.at - T])).toEqual([
      ['slice-dropped', 500, 2000],
    ]);
    expect(d.state.problems).toEqual({});
  });

  it("dates a ztunnel's drop of a workload: removed, or no longer Healthy (it sends only to healthy ones)", () => {
    const Z = 'istio-system/ztunnel-7xk2p';
    const base: LayerSample = {
      at: 1000,
      slices: new Map(),
      shards: new Map(),
      eds: new Map(),
      envoys: new Map(),
      ztunnels: new Map([
        [
          Z,
          new Map([
            ['10.0.0.1', 'Healthy'],
            ['10.0.0.2', 'Healthy'],
            ['10.0.0.3', 'Unhealthy'],
          ]),
        ],
      ]),
    };
    const first = observeLayers(EMPTY_LAYER_STATE, base);
    expect(first.events).toEqual([]);
    const unread = observeLayers(first.state, {
      ...base,
      at: 1500,
      ztunnels: new Map([[Z, { problem: 'connection refused' }]]),
    });
    expect(unread.events).toEqual([]);
    expect(unread.state.problems[`ztunnel ${Z}`]).toBe('connection refused');
    const next = observeLayers(unread.state, {
      ...base,
      at: 2000,
      ztunnels: new Map([[Z, new Map([['10.0.0.2', 'Unhealthy']])]]),
    });
    // dated from the last read that held it, not the one that failed
    expect(next.events).toEqual([
      {
        kind: 'ztunnel-dropped',
        at: 2000,
        since: 1000,
        ip: '10.0.0.1',
        proxy: Z,
        detail: 'removed',
      },
      {
        kind: 'ztunnel-dropped',
        at: 2000,
        since: 1000,
        ip: '10.0.0.2',
        proxy: Z,
        detail: 'Unhealthy',
      },
    ]);
    expect(next.state.problems[`ztunnel ${Z}`]).toBeUndefined();
  });
});
