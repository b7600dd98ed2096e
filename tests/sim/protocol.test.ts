import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../../server/sim/store/kinds';
import { startSimulator, type RunningSimulator } from '../../server/sim/index';
import { fakeMesh, START, testScenario } from './world';

let sim: RunningSimulator;
let dice = 1;

beforeAll(async () => {
  sim = await startSimulator({
    scenario: 'sim-test',
    scenarioImpl: testScenario,
    meshImpl: fakeMesh,
    clock: { fixed: START },
    random: () => dice,
  });
});
afterAll(async () => sim?.close());

const get = (p: string, init?: RequestInit) => fetch(`${sim.url}${p}`, init);
const json = async <T>(p: string): Promise<T> => (await (await get(p)).json()) as T;

describe('version and discovery', () => {
  it('answers /version and tags every response with the scenario', async () => {
    const r = await get('/version');
    expect(r.headers.get('x-meshdx-sim-scenario')).toBe('sim-test');
    expect(await r.json()).toMatchObject({
      gitVersion: 'v1.31.0-meshdx-sim',
      major: '1',
      minor: '31',
      platform: 'linux/amd64',
    });
    expect(
      (await get('/api/v1/namespaces/shop/pods/none')).headers.get('x-meshdx-sim-scenario'),
    ).toBe('sim-test');
  });

  it('answers aggregated-discovery requests with legacy JSON', async () => {
    const r = await get('/api', {
      headers: {
        Accept:
          'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json',
      },
    });
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(await r.json()).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
  });

  it('lists groups with Istio v1 preferred and every resource with its short names', async () => {
    const groups = await json<{
      groups: {
        name: string;
        versions: { version: string }[];
        preferredVersion: { version: string };
      }[];
    }>('/apis');
    const istio = groups.groups.find((g) => g.name === 'networking.istio.io');
    expect(istio?.versions.map((v) => v.version)).toEqual(['v1', 'v1beta1', 'v1alpha3']);
    expect(istio?.preferredVersion.version).toBe('v1');
    expect(groups.groups.map((g) => g.name).sort()).toEqual([
      'admissionregistration.k8s.io',
      'apiextensions.k8s.io',
      'apps',
      'batch',
      'discovery.k8s.io',
      'extensions.istio.io',
      'gateway.networking.k8s.io',
      'networking.istio.io',
      'networking.k8s.io',
      'rbac.authorization.k8s.io',
      'security.istio.io',
      'telemetry.istio.io',
    ]);
    const core = await json<{
      resources: { name: string; shortNames?: string[]; namespaced: boolean }[];
    }>('/api/v1');
    const byName = new Map(core.resources.map((r) => [r.name, r]));
    expect([...byName.keys()].sort()).toEqual([
      'configmaps',
      'events',
      'namespaces',
      'nodes',
      'pods',
      'pods/log',
      'pods/portforward',
      'pods/proxy',
      'secrets',
      'serviceaccounts',
      'services',
    ]);
    expect(byName.get('pods')?.shortNames).toEqual(['po']);
    expect(byName.get('namespaces')?.namespaced).toBe(false);
    const alpha = await json<{ resources: { name: string }[] }>(
      '/apis/networking.istio.io/v1alpha3',
    );
    expect(alpha.resources.map((r) => r.name).sort()).toEqual(
      Object.values(KINDS)
        .filter((k) => k.group === 'networking.istio.io' && k.versions.includes('v1alpha3'))
        .map((k) => k.plural)
        .sort(),
    );
  });

  it('serves OpenAPI v3 (what kubectl apply validates with) and an index of its documents', async () => {
    const idx = (await (await get('/openapi/v3')).json()) as {
      paths: Record<string, { serverRelativeURL: string }>;
    };
    const url = idx.paths['apis/networking.istio.io/v1']?.serverRelativeURL ?? '';
    const doc = await get(url);
    expect(doc.status).toBe(200);
    expect(JSON.stringify(await doc.json())).toContain('"fieldValidation"');
    expect((await get('/openapi/v3/apis/nope/v1')).status).toBe(404);
  });

  it('answers /openapi/v2 with a document without definitions, in protobuf when asked', async () => {
    const pb = await fetch(`${sim.url}/openapi/v2`, {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    expect(pb.status).toBe(200);
    expect(pb.headers.get('content-type')).toBe(
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    );
    const bytes = Buffer.from(await pb.arrayBuffer());
    // field 1 (swagger) = "2.0", then field 2 (info) holding the title
    expect([...bytes.subarray(0, 5)]).toEqual([0x0a, 3, 0x32, 0x2e, 0x30]);
    expect(bytes.includes(Buffer.from('Kubernetes'))).toBe(true);
    const json = (await (await get('/openapi/v2')).json()) as { swagger: string };
    expect(json).toMatchObject({ swagger: '2.0', paths: {}, definitions: {} });
  });

  it('answers unknown resources and groups with a 404 Status', async () => {
    for (const p of ['/apis/networking.istio.io/v1/wasmplugins', '/apis/nope/v1']) {
      const r = await get(p);
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
      });
    }
  });
});

describe('objects', () => {
  it('replaces with a resourceVersion check and deletes', async () => {
    const base = '/api/v1/namespaces/istio-system/configmaps/istio';
    const cm = await json<{
      metadata: { resourceVersion: string; uid: string };
      data: Record<string, string>;
    }>(base);
    const stale = {
      ...cm,
      metadata: { ...cm.metadata, name: 'istio', resourceVersion: '1' },
      data: { mesh: 'x' },
    };
    expect((await get(base, { method: 'PUT', body: JSON.stringify(stale) })).status).toBe(409);
    const fresh = { ...cm, metadata: { ...cm.metadata, name: 'istio' }, data: { mesh: 'y' } };
    const put = await get(base, { method: 'PUT', body: JSON.stringify(fresh) });
    expect(put.status).toBe(200);
    const after = (await put.json()) as {
      metadata: { uid: string; resourceVersion: string };
      data: { mesh: string };
    };
    expect(after.data.mesh).toBe('y');
    expect(after.metadata.uid).toBe(cm.metadata.uid);
    expect(Number(after.metadata.resourceVersion)).toBe(sim.store.resourceVersion());
    expect((await get(base, { method: 'DELETE' })).status).toBe(200);
    expect((await get(base)).status).toBe(404);
    expect((await get(base, { method: 'DELETE' })).status).toBe(404);
  });

  it('rejects a bad label selector with 400', async () => {
    const r = await get('/api/v1/pods?labelSelector=' + encodeURIComponent('app in (a'));
    expect(r.status).toBe(400);
  });
});

describe('faults and /_sim', () => {
  it('reports info and advances the clock', async () => {
    const info = await json<{
      scenario: string;
      clock: { mode: string; now: string };
      counts: Record<string, number>;
    }>('/_sim/info');
    expect(info.scenario).toBe('sim-test');
    expect(info.clock).toEqual({ mode: 'fixed', now: START.toISOString() });
    expect(info.counts.pods).toBe(sim.store.list('pods').length);
    const adv = await get('/_sim/advance?ms=1500', { method: 'POST' });
    expect(await adv.json()).toEqual({ now: new Date(START.getTime() + 1500).toISOString() });
    expect((await get('/_sim/advance?ms=abc', { method: 'POST' })).status).toBe(400);
  });

  it('patches faults, validates them, and fails API calls at the error rate', async () => {
    const bad = await get('/_sim/faults', {
      method: 'POST',
      body: JSON.stringify({ errorRate: 2 }),
    });
    expect(bad.status).toBe(400);
    const ok = await get('/_sim/faults', {
      method: 'POST',
      body: JSON.stringify({
        errorRate: 0.5,
        slowPods: { 'shop/web-1': 10 },
        unreachablePods: ['shop/hellopod'],
      }),
    });
    expect(await ok.json()).toMatchObject({
      errorRate: 0.5,
      slowPods: { 'shop/web-1': 10 },
      unreachablePods: ['shop/hellopod'],
    });
    expect(sim.faults.unreachablePods.has('shop/hellopod')).toBe(true);
    dice = 0.2; // below the rate: fails
    const failed = await get('/api/v1/pods');
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ reason: 'InternalError', code: 500 });
    expect((await get('/_sim/info')).status).toBe(200); // controls never fail
    dice = 0.9;
    expect((await get('/api/v1/pods')).status).toBe(200);
    await get('/_sim/faults', {
      method: 'POST',
      body: JSON.stringify({ errorRate: 0, slowPods: {}, unreachablePods: [] }),
    });
    expect(sim.faults.slowPods.size).toBe(0);
  });

  it('drops open watches when dropWatchesAfterMs is switched on', async () => {
    const r = await get('/api/v1/pods?watch=1');
    const reader = r.body?.getReader();
    expect(reader).toBeDefined();
    let text = '';
    const decoder = new TextDecoder();
    sim.faults.dropWatchesAfterMs = 50;
    try {
      for (;;) {
        const chunk = await reader!.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value);
      }
    } finally {
      sim.faults.dropWatchesAfterMs = 0;
    }
    const types = text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types).toEqual(sim.store.list('pods').map(() => 'ADDED'));
  });

  it('adds latency to API calls', async () => {
    sim.faults.latencyMs = 150;
    try {
      const t0 = performance.now();
      await get('/version');
      expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      sim.faults.latencyMs = 0;
    }
  });
});
