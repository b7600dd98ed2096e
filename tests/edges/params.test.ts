import { describe, expect, it } from 'vitest';
import { GET as incidentsGet } from '../../app/api/incidents/route';
import { GET as liveGet } from '../../app/api/incidents/live/route';
import { GET as timelinesGet } from '../../app/api/timelines/route';
import { GET as podsGet } from '../../app/api/pods/route';
import { GET as healthGet } from '../../app/api/health/route';
import { GET as inventoryGet } from '../../app/api/inventory/route';
import { GET as ztunnelGet } from '../../app/api/ztunnels/[namespace]/[name]/route';
import { expectError, url, useEdgeCluster, type ErrorBody } from './support';
import { podPath } from '../../lib/refs/pod-ref';

/**
 * One parameter rule for every route: each bad filter the testers sent is a 400 naming the
 * parameter, on every route that takes it; a namespace that does not exist is a 404 naming it.
 * Through the real route handlers against the simulated cluster.
 */
const cluster = useEdgeCluster('params');

// what the testers sent, as the decoded value a route sees
const BAD_NAMESPACES = ['UPPER', '%zz', '\u00ff', '../..', '"quoted"', "o'neil", '<script>'];

describe('query parameters', () => {
  it('a bad namespace is a 400 naming it on incidents, live, timelines and pods alike', async () => {
    for (const ns of BAD_NAMESPACES) {
      const q = `namespace=${encodeURIComponent(ns)}`;
      await expectError(
        await incidentsGet(new Request(url(`/api/incidents?${q}`))),
        400,
        'INVALID_PARAMETER',
        'namespace',
      );
      await expectError(
        await liveGet(new Request(url(`/api/incidents/live?${q}`))),
        400,
        'INVALID_PARAMETER',
        'namespace',
      );
      await expectError(
        await timelinesGet(new Request(url(`/api/timelines?${q}`))),
        400,
        'INVALID_PARAMETER',
        'namespace',
      );
      await expectError(
        await podsGet(new Request(url(`/api/pods?${q}`))),
        400,
        'INVALID_PARAMETER',
        'namespace',
      );
    }
  });

  it('a bad ip or client is a 400 naming it, on incidents and live', async () => {
    for (const [name, value] of [
      ['ip', 'not-an-ip'],
      ['ip', '999.1.1.1'],
      ['client', '../../etc'],
      ['client', 'shop/web-0,UPPER/x'],
    ] as const) {
      const q = `${name}=${encodeURIComponent(value)}`;
      await expectError(
        await incidentsGet(new Request(url(`/api/incidents?${q}`))),
        400,
        'INVALID_PARAMETER',
        name,
      );
      await expectError(
        await liveGet(new Request(url(`/api/incidents/live?${q}`))),
        400,
        'INVALID_PARAMETER',
        name,
      );
    }
  });

  it('a namespace that does not exist is a 404 naming it, not a view of other pods', async () => {
    const res = await incidentsGet(new Request(url('/api/incidents?namespace=does-not-exist')));
    await expectError(res, 404, 'NAMESPACE_NOT_FOUND', 'namespace');
    const live = await liveGet(new Request(url('/api/incidents/live?namespace=does-not-exist')));
    await expectError(live, 404, 'NAMESPACE_NOT_FOUND', 'namespace');
    for (const [get, path] of [
      [timelinesGet, '/api/timelines'],
      [podsGet, '/api/pods'],
      [inventoryGet, '/api/inventory'],
    ] as const) {
      const res2 = await get(new Request(url(`${path}?namespace=does-not-exist`)));
      await expectError(res2, 404, 'NAMESPACE_NOT_FOUND', 'namespace');
    }
  });

  it('good values still answer the view', async () => {
    const res = await incidentsGet(
      new Request(url('/api/incidents?namespace=shop&ip=10.244.1.17&client=shop/web-0')),
    );
    expect(res.status).toBe(200);
  });
});

describe('path parameters', () => {
  it('a ztunnel route on a sidecar pod is a 404 saying it is not a ztunnel', async () => {
    const pod = cluster.sim.store
      .list<{ metadata: { name: string; namespace: string } }>('pods')
      .find((p) => p.metadata.namespace === 'shop');
    if (!pod) throw new Error('the scenario has no pod in shop');
    const { namespace, name } = pod.metadata;
    const res = await ztunnelGet(
      new Request(url(`/api/ztunnels/${podPath({ namespace, name })}`)),
      {
        params: Promise.resolve({ namespace, name }),
      },
    );
    expect(res.status).toBe(404);
    expect(((await res.json()) as ErrorBody).error.code).toBe('NOT_A_ZTUNNEL');
  });
});

describe('what the answers show of the server', () => {
  it('no absolute store path in /api/incidents or /api/health: the file name only', async () => {
    for (const res of [
      await incidentsGet(new Request(url('/api/incidents?namespace=shop'))),
      await healthGet(new Request(url('/api/health'))),
    ]) {
      const text = await res.text();
      expect(text).not.toContain(cluster.dir);
      expect(text).toContain('.sqlite');
    }
  });
});
