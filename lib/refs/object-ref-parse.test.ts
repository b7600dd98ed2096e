import { describe, expect, it } from 'vitest';
import { objectKey, parseObjectKey, tryParseObjectKey } from './object-ref';
import { RefError } from './ref-error';

describe('parseObjectKey', () => {
  it('reads back what objectKey writes', () => {
    expect(parseObjectKey(objectKey('istio-system', 'waypoint'))).toEqual({
      namespace: 'istio-system',
      name: 'waypoint',
    });
    expect(parseObjectKey('shop/sc.v2')).toEqual({ namespace: 'shop', name: 'sc.v2' });
  });

  it('names the problem of a bad key', () => {
    expect(() => parseObjectKey('waypoint')).toThrow(/there is no "\/"/);
    expect(() => parseObjectKey('a/b/c')).toThrow(/more than one "\/"/);
    expect(() => parseObjectKey('/sc')).toThrow(/the namespace is empty/);
    expect(() => parseObjectKey('shop/')).toThrow(/the name is empty/);
    expect(() => parseObjectKey('Shop/x', 'waypoint reference')).toThrow(
      /not a waypoint reference: "Shop\/x": namespace "Shop" is not a DNS label/,
    );
    expect(() => parseObjectKey('x')).toThrow(RefError);
  });

  it('tryParseObjectKey answers null for a bad key', () => {
    expect(tryParseObjectKey('x')).toBeNull();
    expect(tryParseObjectKey('a/b')).toEqual({ namespace: 'a', name: 'b' });
  });
});
