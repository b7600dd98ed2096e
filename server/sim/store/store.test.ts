import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject, Pod } from '../../../lib/kube/types';
import { readFixture } from '../../../test-support/fixtures';
import { renderEntry } from './entry';
import { RingHistory } from './history';
import { createSimStore, type ChangeRecord } from './store';
import { objectKey } from '../../../lib/refs/object-ref';

const NOW = new Date('2026-01-01T12:34:56.789Z');
const fixturePod = (): Pod =>
  parseAllDocuments(readFixture('pods/kube-dns_pod_with_status.yaml'))[0]?.toJS() as Pod;

describe('createSimStore', () => {
  it('stores a real pod with uid, resourceVersion and creationTimestamp kept from the object', () => {
    const s = createSimStore({ now: () => NOW });
    const pod = fixturePod();
    const stored = s.upsert('pods', pod);
    expect(stored.metadata.resourceVersion).toBe('1');
    expect(stored.metadata.uid).toBe(pod.metadata.uid ?? stored.metadata.uid);
    expect(stored.metadata.creationTimestamp).toBe(
      pod.metadata.creationTimestamp ?? '2026-01-01T12:34:56Z',
    );
    expect(stored.apiVersion).toBe('v1');
    expect(s.get<Pod>('pods', 'kube-system', pod.metadata.name)?.status?.podIP).toBe('10.40.1.4');
    // the stored copy does not alias the caller's object
    pod.metadata.name = 'changed';
    expect(s.list('pods').map((p) => p.metadata.name)).toEqual(['kube-dns-548976df6c-d9kkv']);
  });

  it('sets uid and creationTimestamp (seconds) on create and keeps them on update', () => {
    const s = createSimStore({ now: () => NOW });
    const a = s.upsert<KubeObject>('configmaps', { metadata: { name: 'a', namespace: 'x' } });
    expect(a.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(a.metadata.creationTimestamp).toBe('2026-01-01T12:34:56Z');
    const b = s.upsert<KubeObject>('configmaps', {
      metadata: { name: 'a', namespace: 'x', labels: { v: '2' } },
    });
    expect(b.metadata.uid).toBe(a.metadata.uid);
    expect(b.metadata.resourceVersion).toBe('2');
    expect(s.resourceVersion()).toBe(2);
  });

  it('defaults the namespace of namespaced kinds and drops it from cluster-scoped ones', () => {
    const s = createSimStore({ now: () => NOW });
    expect(s.upsert<KubeObject>('sidecars', { metadata: { name: 'd' } }).metadata.namespace).toBe(
      'default',
    );
    expect(
      s.upsert<KubeObject>('namespaces', { metadata: { name: 'n', namespace: 'bogus' } }).metadata
        .namespace,
    ).toBeUndefined();
    expect(s.get('namespaces', 'anything', 'n')).toBeDefined();
  });

  it('records ADDED, MODIFIED (with the previous state) and DELETED with a fresh resourceVersion', () => {
    const s = createSimStore({ now: () => NOW });
    const seen: ChangeRecord[] = [];
    const stop = s.subscribe((r) => seen.push(r));
    s.upsert('services', {
      metadata: { name: 'web', namespace: 'a', labels: { v: '1' } },
    } as KubeObject);
    s.upsert('services', {
      metadata: { name: 'web', namespace: 'a', labels: { v: '2' } },
    } as KubeObject);
    expect(s.remove('services', 'a', 'web')).toBe(true);
    expect(s.remove('services', 'a', 'web')).toBe(false);
    stop();
    s.upsert('services', { metadata: { name: 'other', namespace: 'a' } } as KubeObject);
    expect(seen.map((r) => `${r.type}@${r.rv}`)).toEqual(['ADDED@1', 'MODIFIED@2', 'DELETED@3']);
    expect(seen[1]?.prev?.obj.metadata.labels).toEqual({ v: '1' });
    expect(seen[2]?.entry.obj.metadata.resourceVersion).toBe('3');
    const since = s.changesSince(1);
    expect(since !== 'expired' && since.map((r) => r.rv)).toEqual([2, 3, 4]);
  });

  it('lists in namespace/name order and serves the same bytes under another apiVersion', () => {
    const s = createSimStore({ now: () => NOW });
    for (const [ns, n] of [
      ['b', 'x'],
      ['a', 'z'],
      ['a', 'y'],
    ] as const) {
      s.upsert('destinationrules', {
        metadata: { name: n, namespace: ns },
        spec: { host: n },
      } as KubeObject);
    }
    expect(
      s.list('destinationrules').map((o) => objectKey(o.metadata.namespace ?? '', o.metadata.name)),
    ).toEqual(['a/y', 'a/z', 'b/x']);
    expect(s.list('destinationrules')).toBe(s.list('destinationrules')); // cached until a change
    const e = s.entries('destinationrules')[0]!;
    const json = JSON.parse(renderEntry(e, 'networking.istio.io/v1alpha3')) as KubeObject;
    expect(json.apiVersion).toBe('networking.istio.io/v1alpha3');
    expect(json.kind).toBe('DestinationRule');
    expect({ ...json, apiVersion: e.obj.apiVersion }).toEqual(e.obj);
    expect(s.counts().destinationrules).toBe(3);
  });

  it('expires resumes older than its history', () => {
    const s = createSimStore({ now: () => NOW, historySize: 3 });
    for (let i = 0; i < 5; i += 1)
      s.upsert<KubeObject>('configmaps', { metadata: { name: `c${i}`, namespace: 'x' } });
    expect(s.changesSince(1)).toBe('expired');
    const ok = s.changesSince(2);
    expect(ok !== 'expired' && ok.map((r) => r.rv)).toEqual([3, 4, 5]);
  });
});

describe('RingHistory', () => {
  it('keeps the newest records and remembers the compaction point', () => {
    const h = new RingHistory<{ rv: number }>(4);
    for (let rv = 1; rv <= 10; rv += 1) h.push({ rv });
    expect(h.length).toBe(4);
    expect(h.compactedThrough).toBe(6);
    expect(h.since(5)).toBe('expired');
    expect(h.since(6)).toEqual([{ rv: 7 }, { rv: 8 }, { rv: 9 }, { rv: 10 }]);
    expect(h.since(9)).toEqual([{ rv: 10 }]);
    expect(h.since(10)).toEqual([]);
    expect(() => new RingHistory(0)).toThrow(RangeError);
  });
});
