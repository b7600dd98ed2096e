import { describe, expect, it } from 'vitest';
import type { DestinationRule } from '../../../../lib/kube/types';
import { destinationRuleFor, indexDestinationRules } from './destination-rules';

const REVIEWS = { hostname: 'reviews.shop.svc.cluster.local', namespace: 'shop' };

function dr(
  namespace: string,
  name: string,
  spec: Record<string, unknown>,
  created = '2024-01-01T00:00:00Z',
): DestinationRule {
  return {
    apiVersion: 'networking.istio.io/v1',
    kind: 'DestinationRule',
    metadata: { namespace, name, creationTimestamp: created },
    spec: spec as DestinationRule['spec'],
  };
}

const pick = (rules: DestinationRule[], proxyNs: string, labels: Record<string, string> = {}) =>
  destinationRuleFor(indexDestinationRules(rules, 'istio-system'), proxyNs, labels, REVIEWS);

describe('the simulated istiod picks DestinationRules as push_context.go does', () => {
  it('merges two rules for one host in one namespace: first policy, every new subset', () => {
    const rules = [
      dr(
        'shop',
        'b',
        { host: 'reviews', subsets: [{ name: 'v2' }, { name: 'v1' }] },
        '2024-02-01T00:00:00Z',
      ),
      dr('shop', 'a', {
        host: 'reviews.shop.svc.cluster.local',
        trafficPolicy: { outlierDetection: { consecutive5xxErrors: 3 } },
        subsets: [{ name: 'v1', labels: { version: 'v1' } }],
      }),
    ];
    const got = pick(rules, 'shop');
    expect(got?.from).toEqual([
      { namespace: 'shop', name: 'a' },
      { namespace: 'shop', name: 'b' },
    ]);
    expect(got?.subsets.map((s) => s.name)).toEqual(['v1', 'v2']);
    expect(got?.subsets[0]?.labels).toEqual({ version: 'v1' });
    expect(got?.trafficPolicy?.outlierDetection?.consecutive5xxErrors).toBe(3);
  });

  it('keeps rules with different exportTo apart (enhanced merge)', () => {
    const rules = [
      dr('shop', 'open', { host: 'reviews', subsets: [{ name: 'v1' }] }),
      dr(
        'shop',
        'mine',
        { host: 'reviews', exportTo: ['.'], subsets: [{ name: 'v2' }] },
        '2024-03-01T00:00:00Z',
      ),
    ];
    // a proxy of the namespace sees both entries; the last selector-less one is the catch-all
    expect(pick(rules, 'shop')?.from.map((f) => f.name)).toEqual(['mine']);
    expect(pick(rules, 'web')?.from.map((f) => f.name)).toEqual(['open']);
  });

  it("looks in the proxy's namespace, then the service's, then the root namespace", () => {
    const rules = [
      dr('istio-system', 'root', { host: 'reviews.shop.svc.cluster.local' }),
      dr('shop', 'owner', { host: 'reviews' }),
      dr('web', 'client', { host: 'reviews.shop.svc.cluster.local' }),
    ];
    expect(pick(rules, 'web')?.from[0]?.name).toBe('client');
    expect(pick(rules, 'api')?.from[0]?.name).toBe('owner');
    expect(pick(rules.slice(0, 1), 'api')?.from[0]?.name).toBe('root');
  });

  it('gives a root-namespace proxy the service namespace rule before an exported root rule', () => {
    const rules = [
      dr('istio-system', 'root', {
        host: 'reviews.shop.svc.cluster.local',
        subsets: [{ name: 'r' }],
      }),
      dr('shop', 'owner', { host: 'reviews', subsets: [{ name: 'o' }] }),
    ];
    expect(pick(rules, 'istio-system')?.from[0]?.name).toBe('owner');
    const privateRoot = dr('istio-system', 'private', {
      host: 'reviews.shop.svc.cluster.local',
      exportTo: ['.'],
    });
    expect(pick([...rules, privateRoot], 'istio-system')?.from[0]?.name).toBe('private');
  });

  it('honours exportTo of the service namespace rule', () => {
    const rules = [dr('shop', 'owner', { host: 'reviews', exportTo: ['web'] })];
    expect(pick(rules, 'web')?.from[0]?.name).toBe('owner');
    expect(pick(rules, 'api')).toBeUndefined();
    // exported only elsewhere, the rule does not even apply in its own namespace
    expect(pick(rules, 'shop')).toBeUndefined();
  });

  it('prefers the exact host, then the most specific wildcard', () => {
    const rules = [
      dr('shop', 'all', { host: '*' }),
      dr('shop', 'local', { host: '*.svc.cluster.local' }),
      dr('shop', 'ns', { host: '*.shop.svc.cluster.local' }),
    ];
    expect(pick(rules, 'shop')?.from[0]?.name).toBe('ns');
    expect(pick([...rules, dr('shop', 'exact', { host: 'reviews' })], 'shop')?.from[0]?.name).toBe(
      'exact',
    );
    expect(pick(rules.slice(0, 2), 'shop')?.from[0]?.name).toBe('local');
  });

  it('applies a workloadSelector rule only to the proxies of its namespace it selects', () => {
    const rules = [
      dr('shop', 'canary', {
        host: 'reviews',
        workloadSelector: { matchLabels: { app: 'web' } },
        subsets: [{ name: 'canary' }],
      }),
      dr('shop', 'plain', { host: 'reviews', subsets: [{ name: 'v1' }] }),
    ];
    expect(pick(rules, 'shop', { app: 'web' })?.from[0]?.name).toBe('canary');
    expect(pick(rules, 'shop', { app: 'cart' })?.from[0]?.name).toBe('plain');
    expect(pick(rules, 'web', { app: 'web' })?.from[0]?.name).toBe('plain');
  });

  it('keeps a rule private to its namespace under MeshConfig defaultDestinationRuleExportTo "."', () => {
    const index = indexDestinationRules(
      [dr('shop', 'owner', { host: 'reviews' })],
      'istio-system',
      ['.'],
    );
    expect(destinationRuleFor(index, 'shop', {}, REVIEWS)?.from[0]?.name).toBe('owner');
    expect(destinationRuleFor(index, 'web', {}, REVIEWS)).toBeUndefined();
  });
});
