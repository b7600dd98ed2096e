import { describe, expect, it } from 'vitest';
import type { KubeEvent, Pod } from '../../lib/kube/types';
import { EventIndex } from './event-index';

const at = new Date('2026-01-01T00:00:00Z');
const e = (name: string, involved: KubeEvent['involvedObject']): KubeEvent =>
  ({
    metadata: { name, namespace: 'shop', uid: `e-${name}` },
    involvedObject: involved,
    reason: 'Unhealthy',
  }) as KubeEvent;
const podOf = (name: string, uid: string): Pod =>
  ({ metadata: { name, namespace: 'shop', uid }, spec: { containers: [] } }) as Pod;

describe('EventIndex', () => {
  it('files pod events by uid and name, and keeps them after they expire', () => {
    const idx = new EventIndex();
    const ev1 = e('a', { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'u1' });
    expect(idx.apply({ type: 'ADDED', object: ev1, observedAt: at, via: 'list' })).toEqual([
      'u1',
      'shop/web-1',
    ]);
    idx.apply({ type: 'DELETED', object: ev1, observedAt: at, via: 'watch' });
    expect(idx.forPod(podOf('web-1', 'u1')).map((x) => x.metadata.name)).toEqual(['a']);
    expect(idx.size).toBe(1);
  });

  it('does not give an earlier pod of the same name its events', () => {
    const idx = new EventIndex();
    idx.apply({
      type: 'ADDED',
      object: e('old', { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'u0' }),
      observedAt: at,
      via: 'list',
    });
    idx.apply({
      type: 'ADDED',
      object: e('noUid', { kind: 'Pod', name: 'web-1', namespace: 'shop' }),
      observedAt: at,
      via: 'list',
    });
    expect(idx.forPod(podOf('web-1', 'u1')).map((x) => x.metadata.name)).toEqual(['noUid']);
  });

  it('counts events about other kinds and events past the per-pod bound', () => {
    const idx = new EventIndex({ maxPerPod: 2 });
    idx.apply({
      type: 'ADDED',
      object: e('n', { kind: 'Node', name: 'node-a' }),
      observedAt: at,
      via: 'list',
    });
    expect(idx.ignored).toBe(1);
    for (const n of ['a', 'b', 'c'])
      idx.apply({
        type: 'ADDED',
        object: e(n, { kind: 'Pod', name: 'web-1', namespace: 'shop', uid: 'u1' }),
        observedAt: at,
        via: 'list',
      });
    expect(idx.forPod(podOf('web-1', 'u1')).map((x) => x.metadata.name)).toEqual(['b', 'c']);
    expect(idx.dropped).toBe(1);
    expect(idx.size).toBe(2);
  });
});
