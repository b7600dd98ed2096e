import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeOn, simClient } from '../../test-support/simulator';
import type { ClusterRuntime } from '../runtime/runtime';
import { listKinds } from './kind-lists';
import { forwardRequest } from '../../test-support/api-forward';

const c = simClient('demo');
const inRoot = (k: string) => (k === 'ConfigMap' ? 'istio-system' : undefined);

describe('listKinds on the simulator', () => {
  it('lists each kind where the API server serves it, with its kind and apiVersion', async () => {
    const r = await listKinds(
      c.t,
      ['Deployment', 'ConfigMap', 'MutatingWebhookConfiguration'],
      inRoot,
    );
    expect(r.unknown).toEqual({});
    const deployments = r.items.Deployment ?? [];
    expect(deployments.length).toBeGreaterThan(0);
    for (const d of deployments)
      expect(d).toMatchObject({ kind: 'Deployment', apiVersion: 'apps/v1' });
    // the ConfigMaps of the root namespace only, and said so
    expect(r.namespaceOnly).toEqual({ ConfigMap: 'istio-system' });
    const cms = (r.items.ConfigMap ?? []) as { metadata: { namespace: string } }[];
    expect(cms.length).toBeGreaterThan(0);
    expect(new Set(cms.map((m) => m.metadata.namespace))).toEqual(new Set(['istio-system']));
  });

  it('names what it cannot read instead of listing nothing', async () => {
    const r = await listKinds(c.t, ['Secret', 'Frobnicator'], inRoot);
    expect(r.items).toEqual({});
    expect(r.declined.Secret).toBe('meshdx does not read Secrets (they hold credentials)');
    expect(r.unknown.Secret).toBeUndefined();
    expect(r.unknown.Frobnicator).toBe('meshdx does not know where Frobnicator is served');
  });
});

/** An API server in front of the simulator that forbids Deployments and serves no Telemetry. */
describe('listKinds through an API server that refuses', () => {
  let proxy: http.Server;
  let rt: ClusterRuntime;
  const accepts = new Map<string, string>();
  beforeAll(async () => {
    const sim = new URL(c.sim.url);
    proxy = http.createServer((req, res) => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      accepts.set(p, String(req.headers.accept));
      const status = (code: number, reason: string, message: string) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            reason,
            code,
            message,
          }),
        );
      };
      if (p === '/apis/apps/v1/deployments')
        return status(
          403,
          'Forbidden',
          'deployments.apps is forbidden: User "meshdx" cannot list resource "deployments" in API group "apps" at the cluster scope',
        );
      if (p.startsWith('/apis/telemetry.istio.io/'))
        return status(404, 'NotFound', 'the server could not find the requested resource');
      forwardRequest(req, res, sim);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const kc = new KubeConfig();
    kc.loadFromString(
      c.sim.kubeconfigYaml
        .split(c.sim.url)
        .join(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`),
    );
    rt = runtimeOn(kc);
  });
  afterAll(async () => {
    rt?.stop();
    proxy?.closeAllConnections();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  it('a refused kind is unknown with the API server’s words; a CRD not installed has none', async () => {
    const r = await listKinds(rt.transport, ['Deployment', 'Telemetry', 'ConfigMap'], inRoot);
    expect(Object.keys(r.unknown)).toEqual(['Deployment']);
    expect(r.unknown.Deployment).toMatch(/^deployments\.apps: .*forbidden/);
    expect(r.items.Deployment).toBeUndefined();
    expect(r.notInstalled).toEqual(['Telemetry']);
    expect(r.items.Telemetry).toEqual([]);
    expect((r.items.ConfigMap ?? []).length).toBeGreaterThan(0);
  });

  it('asks for the metadata of CRDs only (their schemas are megabytes nobody reads)', async () => {
    const r = await listKinds(rt.transport, ['CustomResourceDefinition', 'Deployment']);
    expect(accepts.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).toMatch(
      /^application\/json;as=PartialObjectMetadataList;g=meta\.k8s\.io;v=v1,application\/json$/,
    );
    expect(accepts.get('/apis/apps/v1/deployments')).toBe('application/json');
    for (const crd of r.items.CustomResourceDefinition ?? [])
      expect(crd).toMatchObject({ kind: 'CustomResourceDefinition' });
  });
});
