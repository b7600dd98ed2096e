import { describe, it, expect } from 'vitest';
import type { KubeObject, Pod } from '../../../lib/kube/types';
import { createMeshEmulator } from './index';
import { bookinfo, type WorldObjects } from './testworld';

/** istiod's /debug/syncz as state kept from pushes: kept, answered anew, built ahead. */
type Json = Record<string, unknown>;
const q = (s = '') => new URLSearchParams(s);

describe('istiod sync state', () => {
  it('syncz kept while the pod list is the same array, answered anew once it changes', () => {
    const w = bookinfo();
    // like the store: one array per kind until that kind changes
    const lists = new Map<string, KubeObject[]>();
    const list = (kind: string) => {
      let l = lists.get(kind);
      if (!l) lists.set(kind, (l = [...((w as Record<string, KubeObject[]>)[kind] ?? [])]));
      return l;
    };
    const mesh = createMeshEmulator({ now: () => new Date('2024-06-01T12:00:00Z'), list });
    const istiod = list('pods').find((p) => p.metadata.name === 'istiod-7d9f') as Pod;
    const row = (body: string) =>
      (JSON.parse(body) as Json[]).find((x) => x.proxy === 'reviews-v2-bbb.default');
    const first = mesh.podHttp(istiod, 15014, '/debug/syncz', q());
    expect(mesh.podHttp(istiod, 15014, '/debug/syncz', q())).toBe(first);
    expect(row(first.body)?.endpoint_acked).toBe(row(first.body)?.endpoint_sent);
    const pods = list('pods').map((p) =>
      p.metadata.name === 'reviews-v2-bbb'
        ? { ...p, metadata: { ...p.metadata, annotations: { 'sim.meshdx.io/xds-stale': 'eds' } } }
        : p,
    );
    lists.set('pods', pods);
    const after = mesh.podHttp(istiod, 15014, '/debug/syncz', q());
    expect(row(after.body)?.endpoint_acked).not.toBe(row(after.body)?.endpoint_sent);
    expect(row(after.body)?.cluster_acked).toBe(row(after.body)?.cluster_sent);
  });

  it('warm() builds the sync rows before the first request, with the answer a cold start gives', () => {
    const lists = (w: WorldObjects) => {
      const kept = new Map<string, KubeObject[]>();
      return (kind: string) => {
        let l = kept.get(kind);
        if (!l) kept.set(kind, (l = [...((w as Record<string, KubeObject[]>)[kind] ?? [])]));
        return l;
      };
    };
    const now = () => new Date('2024-06-01T12:00:00Z');
    const coldWorld = bookinfo();
    const warmWorld = bookinfo();
    const cold = createMeshEmulator({ now, list: lists(coldWorld) });
    const warmed = createMeshEmulator({ now, list: lists(warmWorld) });
    warmed.warm?.();
    const istiodOf = (w: WorldObjects) =>
      (w.pods as Pod[]).find((p) => p.metadata.name === 'istiod-7d9f') as Pod;
    // nonces are random: a row is its proxy, type, version and which types are acked
    const shape = (body: string) =>
      (JSON.parse(body) as Json[]).map((x) => ({
        ...x,
        ...Object.fromEntries(
          ['cluster', 'listener', 'route', 'endpoint'].map((t) => [
            `${t}_sent`,
            x[`${t}_sent`] === undefined ? 'none' : x[`${t}_acked`] === x[`${t}_sent`],
          ]),
        ),
        cluster_acked: null,
        listener_acked: null,
        route_acked: null,
        endpoint_acked: null,
      }));
    const warmRows = shape(warmed.podHttp(istiodOf(warmWorld), 15014, '/debug/syncz', q()).body);
    expect(warmRows.length).toBeGreaterThan(3);
    expect(warmRows).toEqual(
      shape(cold.podHttp(istiodOf(coldWorld), 15014, '/debug/syncz', q()).body),
    );
    // the rows are istiod's state from before: a pod edited in place (no store change) is not
    // seen by the warmed istiod, and is by one that builds its rows on this request
    const stale = (w: WorldObjects) => {
      const p = (w.pods as Pod[]).find((x) => x.metadata.name === 'reviews-v2-bbb') as Pod;
      p.metadata.annotations = { 'sim.meshdx.io/xds-stale': 'eds' };
    };
    const again = bookinfo();
    const warmedAgain = createMeshEmulator({ now, list: lists(again) });
    warmedAgain.warm?.();
    stale(again);
    const coldAgain = bookinfo();
    const coldNow = createMeshEmulator({ now, list: lists(coldAgain) });
    stale(coldAgain);
    const row = (body: string) =>
      (JSON.parse(body) as Json[]).find((x) => x.proxy === 'reviews-v2-bbb.default');
    const warmRow = row(warmedAgain.podHttp(istiodOf(again), 15014, '/debug/syncz', q()).body);
    const coldRow = row(coldNow.podHttp(istiodOf(coldAgain), 15014, '/debug/syncz', q()).body);
    expect(warmRow?.endpoint_acked).toBe(warmRow?.endpoint_sent);
    expect(coldRow?.endpoint_acked).not.toBe(coldRow?.endpoint_sent);
  });
});
