import { describe, it, expect } from 'vitest';
import { parse } from 'yaml';
import type { DestinationRule, Pod } from '../kube/types';
import { DEFAULT_RETRY_ON } from './resilience';
import {
  ejectableHosts,
  ejectionPercentFor,
  unhealthyEndpointsNote,
  recommendForService,
  replicasFor,
  retryOnWith,
  uncoveredFlags,
  type ServiceEvidence,
} from './recommend';
import { newestIstiodVersion } from '../findings/istiod';

const FQDN = 'payments.shop.svc.cluster.local';

function evidence(patch: Partial<ServiceEvidence> = {}): ServiceEvidence {
  return {
    fqdn: FQDN,
    subset: null,
    count: 20,
    toTerminating: 12,
    toTerminated: 8,
    unknown: 0,
    byFlag: { UC: 10, UF: 6, URX: 4 },
    replicas: 5,
    replicasDuring: null,
    concurrentTerminations: 2,
    failuresPerClientPod: 4,
    maxAfterDeletionMs: 6200,
    maxAfterGoneMs: 9000,
    serverWorkloads: ['shop/payments'],
    graceSeconds: 30,
    resilience: {
      fqdn: FQDN,
      destinationRule: null,
      outlier: null,
      retries: {
        source: null,
        attempts: 2,
        retryOn: DEFAULT_RETRY_ON,
        perTryTimeout: null,
        isDefault: true,
      },
    },
    destinationRule: null,
    ...patch,
  };
}

const codes = (e: ServiceEvidence) => recommendForService(e).map((f) => f.code);

describe('ejection arithmetic', () => {
  it('lets enough hosts be ejected, and knows Envoy always ejects the first one', () => {
    expect(ejectionPercentFor(1, 5)).toBe(20);
    expect(ejectionPercentFor(2, 5)).toBe(40);
    // never every host: with all of them ejected there is nowhere to send
    expect(ejectionPercentFor(2, 2)).toBe(50);
    expect(ejectionPercentFor(4, 4)).toBe(75);
    expect(ejectionPercentFor(1, 1)).toBe(100);
    expect(ejectionPercentFor(1, null)).toBe(50);
    expect(ejectableHosts(10, 5)).toBe(1);
    expect(ejectableHosts(null, 30)).toBe(3);
    expect(ejectableHosts(40, 5)).toBe(2);
  });

  it('sizes ejection by the replicas during the failures, not after a scale-down', () => {
    expect(replicasFor({ replicas: 2, replicasDuring: 4 })).toBe(4);
    expect(replicasFor({ replicas: 5, replicasDuring: null })).toBe(5);
    expect(replicasFor({ replicas: null, replicasDuring: null })).toBeNull();
    const e = evidence({ replicas: 2, replicasDuring: 4, concurrentTerminations: 2 });
    const dr = parse(
      recommendForService(e).find((x) => x.code === 'MDX0403')?.fix?.yaml ?? '',
    ) as DestinationRule;
    expect(dr.spec.trafficPolicy?.outlierDetection?.maxEjectionPercent).toBe(50);
  });

  it('writes 503 out when it turns the default retry policy into a VirtualService one', () => {
    // Istio replaces its default retriable status codes (503) by the numbers in retryOn
    expect(retryOnWith(DEFAULT_RETRY_ON, true, ['reset']).split(',')).toEqual([
      ...DEFAULT_RETRY_ON.split(','),
      '503',
      'reset',
    ]);
    expect(retryOnWith('connect-failure', false, ['reset'])).toBe('connect-failure,reset');
    expect(retryOnWith('5xx,503', true, [])).toBe('5xx,503');
  });

  it('knows which flags the retry conditions cover', () => {
    expect(uncoveredFlags(DEFAULT_RETRY_ON, { UC: 1, UF: 1, URX: 1 })).toEqual(['UC']);
    expect(uncoveredFlags('5xx', { UC: 1, UF: 1 })).toEqual([]);
    expect(uncoveredFlags('reset', { UC: 1, UF: 1 })).toEqual(['UF']);
  });
});

describe('recommendForService', () => {
  it('without outlier detection: gone pods, terminating pods, a new DestinationRule, retries on reset, drain', () => {
    const f = recommendForService(evidence());
    expect(f.map((x) => x.code)).toEqual(['MDX0401', 'MDX0402', 'MDX0403', 'MDX0405', 'MDX0406']);
    const dr = parse(f.find((x) => x.code === 'MDX0403')?.fix?.yaml ?? '') as DestinationRule;
    expect(dr.metadata).toEqual({ name: 'payments', namespace: 'shop' });
    expect(dr.spec.host).toBe(FQDN);
    expect(dr.spec.trafficPolicy?.outlierDetection).toEqual({
      consecutive5xxErrors: 3,
      interval: '5s',
      baseEjectionTime: '30s',
      maxEjectionPercent: 40,
    });
    const vs = parse(f.find((x) => x.code === 'MDX0405')?.fix?.yaml ?? '') as {
      spec: { http: { retries: { attempts: number; retryOn: string } }[] };
    };
    expect(vs.spec.http[0]?.retries.attempts).toBe(3);
    expect(vs.spec.http[0]?.retries.retryOn.split(',')).toContain('reset');
    expect(vs.spec.http[0]?.retries.retryOn.split(',')).toContain('503');
    const drain = f.find((x) => x.code === 'MDX0406');
    expect(drain?.subject).toEqual({ kind: 'Deployment', namespace: 'shop', name: 'payments' });
    expect(drain?.evidence.recommendedDrainS).toBe(15);
    expect(drain?.fix?.yaml).toContain('terminationDrainDuration');
  });

  it('keeps the existing DestinationRule and flags outlier detection that cannot act', () => {
    const existing: DestinationRule = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { namespace: 'shop', name: 'payments-dr' },
      spec: {
        host: 'payments',
        trafficPolicy: {
          loadBalancer: { simple: 'LEAST_REQUEST' },
          outlierDetection: { consecutive5xxErrors: 7, maxEjectionPercent: 10 },
        },
      },
    };
    const e = evidence({
      destinationRule: existing,
      resilience: {
        ...evidence().resilience,
        destinationRule: 'shop/payments-dr',
        outlier: {
          source: 'shop/payments-dr',
          subset: null,
          consecutive5xxErrors: 7,
          consecutiveGatewayErrors: null,
          interval: null,
          baseEjectionTime: null,
          maxEjectionPercent: 10,
        },
      },
    });
    const f = recommendForService(e);
    const weak = f.find((x) => x.code === 'MDX0404');
    expect(weak?.evidence).toMatchObject({
      consecutive5xxErrors: 7,
      ejectableHosts: 1,
      concurrentTerminations: 2,
    });
    const dr = parse(weak?.fix?.yaml ?? '') as DestinationRule;
    expect(dr.metadata.name).toBe('payments-dr');
    expect(dr.spec.host).toBe('payments');
    expect(dr.spec.trafficPolicy?.loadBalancer).toEqual({ simple: 'LEAST_REQUEST' });
    expect(dr.spec.trafficPolicy?.outlierDetection?.consecutive5xxErrors).toBe(3);
    expect(codes(e)).not.toContain('MDX0403');
  });

  it('says nothing about ejection or retries when requests only hit live pods with covered flags', () => {
    const e = evidence({ toTerminating: 0, toTerminated: 0, byFlag: { UF: 3 }, count: 3 });
    expect(codes(e)).toEqual([]);
    expect(codes(evidence({ toTerminating: 0, toTerminated: 0, unknown: 3, byFlag: {} }))).toEqual([
      'MDX0408',
    ]);
  });

  it('names the VirtualService to edit when one already sets retries', () => {
    const e = evidence({
      resilience: {
        ...evidence().resilience,
        retries: {
          source: 'shop/pay',
          attempts: 2,
          retryOn: 'connect-failure',
          perTryTimeout: '1s',
          isDefault: false,
        },
      },
    });
    const y = recommendForService(e).find((x) => x.code === 'MDX0405')?.fix?.yaml ?? '';
    expect(y.startsWith('# in VirtualService shop/pay')).toBe(true);
    expect(parse(y)).toEqual({
      retries: { attempts: 3, retryOn: 'connect-failure,reset', perTryTimeout: '1s' },
    });
  });
});

describe('advice by the istiod version', () => {
  const istiod = (image: string, ns = 'istio-system'): Pod =>
    ({
      metadata: { name: 'istiod-1', namespace: ns, labels: { app: 'istiod' } },
      spec: { containers: [{ name: 'discovery', image }] },
    }) as Pod;

  it("reads istiod's version as Findings reads it: the newest release its image tags name", () => {
    expect(
      newestIstiodVersion([
        istiod('docker.io/istio/pilot:1.30.2'),
        istiod('docker.io/istio/pilot:1.31.0-distroless'),
      ]),
    ).toBe('1.31.0-distroless');
    // an istiod in its own namespace is istiod too (Findings judges it the same way)
    expect(newestIstiodVersion([istiod('gcr.io/x/pilot:1.29.1', 'istio-control')])).toBe('1.29.1');
    expect(newestIstiodVersion([istiod('gcr.io/x/pilot@sha256:abc')])).toBeNull();
    expect(newestIstiodVersion([istiod('gcr.io/x/pilot:latest')])).toBeNull();
  });

  it('says what 1.31 changes about not-ready endpoints, for the version the cluster runs', () => {
    expect(unhealthyEndpointsNote('1.31.0')).toMatch(
      /^This istiod \(1\.31\.0\) sends not-ready endpoints .*minHealthPercent/,
    );
    expect(unhealthyEndpointsNote('1.30.2')).toMatch(
      /^This istiod \(1\.30\.2\) leaves not-ready endpoints out of EDS; from 1\.31/,
    );
    expect(unhealthyEndpointsNote(null)).toMatch(/^istiod's version is unknown/);
    expect(unhealthyEndpointsNote('nightly')).toMatch(/names no Istio release/);
    const gone = recommendForService(evidence({ toTerminated: 4, istiodVersion: '1.31.1' }));
    const f = gone.find((x) => x.fix?.why?.startsWith('Client proxies still routed'));
    expect(f?.fix?.why).toContain('This istiod (1.31.1) sends not-ready endpoints');
  });
});
