import { describe, it, expect } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { DestinationRule, VirtualService } from '../kube/types';
import { expandHost, hostMatchScore } from './hosts';
import { parseServiceFqdn } from '../refs/service-host';
import { DEFAULT_RETRY_ON, destinationRuleByHost, resilienceFor, retriesFor } from './resilience';

const dr = (
  ns: string,
  name: string,
  host: string,
  od?: DestinationRule['spec']['trafficPolicy'],
): DestinationRule => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'DestinationRule',
  metadata: { namespace: ns, name },
  spec: { host, ...(od ? { trafficPolicy: od } : {}) },
});

describe('hosts', () => {
  it('expands short names against the resource namespace', () => {
    expect(expandHost('reviews', 'prod', 'cluster.local')).toBe('reviews.prod.svc.cluster.local');
    expect(expandHost('reviews.dev', 'prod', 'cluster.local')).toBe(
      'reviews.dev.svc.cluster.local',
    );
    expect(expandHost('*.prod.svc.cluster.local', 'x', 'cluster.local')).toBe(
      '*.prod.svc.cluster.local',
    );
    expect(parseServiceFqdn('a.b.svc.corp.example')).toEqual({
      name: 'a',
      namespace: 'b',
      domain: 'corp.example',
    });
    expect(parseServiceFqdn('example.com')).toBeNull();
    expect(hostMatchScore('*.prod.svc.cluster.local', 'a.prod.svc.cluster.local')).toBeGreaterThan(
      0,
    );
    expect(hostMatchScore('*.prod.svc.cluster.local', 'a.dev.svc.cluster.local')).toBe(0);
  });
});

describe('destination rules from the real pilot test data', () => {
  const docs = parseAllDocuments(
    readFixture('istio_config', 'pilot_testdata_config', 'destination-rule-all.yaml'),
  ).map((d) => (d.toJS() ?? {}) as { kind?: string });
  const rules = docs.filter((d): d is DestinationRule => d.kind === 'DestinationRule');

  it('finds destall and its top-level outlierDetection', () => {
    expect(rules.length).toBeGreaterThan(0);
    const r = resilienceFor('destall.default.svc.cluster.local', 'v2', rules, []);
    expect(r.destinationRule).toBe('testns/destall');
    expect(r.outlier).toEqual({
      source: 'testns/destall',
      subset: null,
      consecutive5xxErrors: null,
      consecutiveGatewayErrors: null,
      interval: '8ms',
      baseEjectionTime: '1m',
      maxEjectionPercent: 11,
    });
    expect(r.retries.isDefault).toBe(true);
  });
});

describe('destinationRuleByHost / retriesFor', () => {
  const fqdn = 'payments.shop.svc.cluster.local';
  it('prefers an exact host over a wildcard, and the service namespace on ties', () => {
    const wild = dr('shop', 'all', '*.shop.svc.cluster.local');
    const exactElsewhere = dr('other', 'p', fqdn);
    const exactHere = dr('shop', 'p', 'payments');
    expect(destinationRuleByHost(fqdn, [wild, exactElsewhere])?.metadata.namespace).toBe('other');
    expect(destinationRuleByHost(fqdn, [wild, exactElsewhere, exactHere])?.metadata.namespace).toBe(
      'shop',
    );
    expect(destinationRuleByHost(fqdn, [dr('shop', 'x', 'inventory')])).toBeNull();
  });

  it('reads VirtualService retries and falls back to Istio default', () => {
    const vs: VirtualService = {
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { namespace: 'shop', name: 'payments' },
      spec: {
        hosts: ['payments'],
        http: [
          {
            retries: { attempts: 4, retryOn: '5xx' },
            route: [{ destination: { host: 'payments' } }],
          },
        ],
      },
    };
    const gatewayOnly: VirtualService = {
      ...vs,
      metadata: { namespace: 'shop', name: 'gw' },
      spec: { ...vs.spec, gateways: ['ingress'] },
    };
    expect(retriesFor(fqdn, [vs])).toEqual({
      source: 'shop/payments',
      attempts: 4,
      retryOn: '5xx',
      perTryTimeout: null,
      isDefault: false,
    });
    expect(retriesFor(fqdn, [gatewayOnly])).toMatchObject({
      isDefault: true,
      attempts: 2,
      retryOn: DEFAULT_RETRY_ON,
    });
  });
});
