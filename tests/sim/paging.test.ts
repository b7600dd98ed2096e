import { describe, expect, it } from 'vitest';
import { kubectlSim, requireKubectl } from './kubectl-harness';
import { podKeyOfObject } from '../../lib/refs/pod-ref';

requireKubectl('the kubectl --chunk-size test');

interface ListBody {
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: { metadata: { namespace: string; name: string } }[];
}

const h = kubectlSim('sim-paging', { historySize: 50 });

const list = async (q: string): Promise<{ status: number; body: ListBody }> => {
  const r = await fetch(`${h.sim.url}/api/v1/pods?${q}`);
  return { status: r.status, body: (await r.json()) as ListBody };
};

describe('lists honour ?limit= with a continue token', () => {
  it('pages through every pod, one at a time, without repeats', async () => {
    const all = h.sim.store.list('pods').map((p) => podKeyOfObject(p));
    expect(all.length).toBeGreaterThan(2);
    const seen: string[] = [];
    let cont = '';
    let firstRv = '';
    for (let i = 0; i < all.length + 2; i++) {
      const { status, body } = await list(`limit=1${cont ? `&continue=${cont}` : ''}`);
      expect(status).toBe(200);
      firstRv ||= body.metadata.resourceVersion;
      expect(body.metadata.resourceVersion).toBe(firstRv);
      seen.push(...body.items.map((p) => podKeyOfObject(p)));
      if (!body.metadata.continue) break;
      expect(body.items).toHaveLength(1);
      expect(body.metadata.remainingItemCount).toBe(all.length - seen.length);
      cont = encodeURIComponent(body.metadata.continue);
    }
    expect(seen.sort()).toEqual([...all].sort());
  });

  it('rejects a bad token and a bad limit with 400, an expired token with 410', async () => {
    expect((await list('continue=garbage')).status).toBe(400);
    expect((await list('limit=x')).status).toBe(400);
    const first = await list('limit=1');
    for (let i = 0; i < 60; i++) {
      h.sim.store.upsert('configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `churn-${i}`, namespace: 'shop' },
      });
    }
    const stale = await list(
      `limit=1&continue=${encodeURIComponent(first.body.metadata.continue ?? '')}`,
    );
    expect(stale.status).toBe(410);
  });

  it('kubectl get pods -A --chunk-size=1 lists every pod', async () => {
    const stdout = await h.kubectl('get', 'pods', '-A', '--chunk-size=1', '-o', 'name');
    expect(stdout.trim().split('\n').sort()).toEqual(
      h.sim.store
        .list('pods')
        .map((p) => `pod/${p.metadata.name}`)
        .sort(),
    );
  });
});
