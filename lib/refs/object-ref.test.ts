import { describe, expect, it } from 'vitest';
import { objectKey, objectKeyOf, objectText, scopedHost, subjectKey } from './object-ref';

describe('object references', () => {
  it('formats namespaced objects and scoped hosts', () => {
    expect(objectKey('istio-system', 'default')).toBe('istio-system/default');
    expect(objectKeyOf({ metadata: { name: 'sc' } })).toBe('default/sc');
    expect(objectKeyOf({ metadata: { name: 'sc' } }, '')).toBe('/sc');
    expect(objectKeyOf({ metadata: { namespace: 'shop', name: 'sc.v2' } })).toBe('shop/sc.v2');
    expect(objectText('Sidecar', { namespace: 'shop', name: 'default' })).toBe(
      'Sidecar shop/default',
    );
    expect(scopedHost('istio-system', '*')).toBe('istio-system/*');
    expect(scopedHost('shop', 'reviews.shop.svc.cluster.local')).toBe(
      'shop/reviews.shop.svc.cluster.local',
    );
  });

  it('keys a finding subject by kind, namespace and name', () => {
    expect(subjectKey('Service', 'shop', 'reviews')).toBe('Service|shop|reviews');
    expect(subjectKey('Namespace', undefined, 'shop')).toBe('Namespace||shop');
    expect(subjectKey('Namespace', null, 'shop')).toBe('Namespace||shop');
    expect(subjectKey('Pod', 'a', 'b')).not.toBe(subjectKey('Service', 'a', 'b'));
  });
});
