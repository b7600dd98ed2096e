import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { MESH_NETWORKS, meshNetworksOf } from './mesh-networks';
import type { RuleContext } from './rule';
import { screenObjects } from '../screen';

const text = (file: string) => readFixture('istio_config', 'analyzer', file);
const grid = (file: string): unknown[] =>
  parseAllDocuments(text(file)).map((d) => d.toJS() as unknown);
const unknown = (objects: unknown[], rootNamespace?: string) =>
  manifestFindings(objects, rootNamespace === undefined ? {} : { rootNamespace }).findings.filter(
    (f) => f.code === 'IST0126',
  );
const found = (objects: unknown[]) =>
  unknown(objects)
    .map((f) => `${String(f.evidence.network)}: ${String(f.evidence.registry)}`)
    .sort();
const istio = (meshNetworks: unknown, namespace = 'istio-system') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'istio', namespace },
  data: { mesh: 'trustDomain: cluster.local', meshNetworks },
});
/** The grid's mesh networks file as a cluster holds it: the istio ConfigMap's `meshNetworks`. */
const GRID_NETWORKS = istio(text('common/meshnetworks.yaml'));
const secret = (name: string, labels: Record<string, string>, data: unknown, key = 'data') => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'istio-system', labels },
  [key]: data,
});
const networks = (endpoints: unknown) =>
  istio(JSON.stringify({ networks: { net1: { endpoints, gateways: [] } } }));
const REMOTE = { 'istio/multiCluster': 'true' };

describe('IST0126 UnknownMeshNetworksServiceRegistry (multicluster.MeshNetworksAnalyzer)', () => {
  it("reports istioctl's grid case with its mesh networks in the istio ConfigMap", () => {
    const out = unknown([...grid('multicluster-unknown-serviceregistry.yaml'), GRID_NETWORKS]);
    // `kubernetes` is not `Kubernetes`, and the remote secret's cluster is istio-remote
    expect(out.map((f) => [f.evidence.network, f.evidence.registry]).sort()).toEqual([
      ['network1', 'kubernetes'],
      ['network2', 'istio-testing'],
    ]);
    expect(
      out.map((f) => `${f.subject.kind} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}`),
    ).toEqual(['MeshNetworks istio-system/meshnetworks', 'MeshNetworks istio-system/meshnetworks']);
    expect(out[0]?.severity).toBe('error');
    expect(out.map((f) => f.part?.name).sort()).toEqual([
      'networks.network1.endpoints[0]',
      'networks.network2.endpoints[0]',
    ]);
  });

  it('reads a bare mesh networks file given beside the objects, as --meshNetworksFile', () => {
    const [bare] = grid('common/meshnetworks.yaml') as Record<string, unknown>[];
    const objects = grid('multicluster-unknown-serviceregistry.yaml');
    // among the objects it is no Kubernetes object: nothing reads it
    expect(found([...objects, bare])).toEqual([]);
    const given = manifestFindings(objects, { given: { meshNetworks: bare ?? null } }).findings;
    expect(
      given
        .filter((f) => f.code === 'IST0126')
        .map((f) => `${String(f.evidence.network)}: ${String(f.evidence.registry)}`)
        .sort(),
    ).toEqual(['network1: kubernetes', 'network2: istio-testing']);
    // the given file is the mesh networks: the ConfigMap's are not read then
    const clean = networks([{ fromRegistry: 'Kubernetes' }]);
    expect(
      manifestFindings([...objects, clean], {
        given: { meshNetworks: bare ?? null },
      }).findings.filter((f) => f.code === 'IST0126').length,
    ).toBe(2);
    expect(MESH_NETWORKS.claims).toEqual([{ code: 'IST0126', kinds: ['MeshNetworks'] }]);
  });

  it("knows Istio's registries and the clusters of remote secrets, data and stringData", () => {
    const endpoints = [
      { fromRegistry: 'Kubernetes' },
      { fromRegistry: 'External' },
      { fromRegistry: 'Mock' },
      { fromRegistry: 'cluster-a' },
      { fromRegistry: 'cluster-b' },
      { fromRegistry: 'cluster-c' },
      { fromRegistry: 'cluster-d' },
      { fromCidr: '10.0.0.0/8' },
    ];
    expect(
      found([
        networks(endpoints),
        secret('remote-a', REMOTE, { 'cluster-a': 'a3ViZWNvbmZpZw==' }),
        secret('remote-b', REMOTE, { 'cluster-b': 'apiVersion: v1' }, 'stringData'),
        secret('not-remote', {}, { 'cluster-c': 'x' }),
        secret('remote-false', { 'istio/multiCluster': 'false' }, { 'cluster-d': 'x' }),
      ]),
    ).toEqual(['net1: cluster-c', 'net1: cluster-d']);
  });

  it("takes the root namespace's istio ConfigMap, and names its namespace", () => {
    const other = istio(
      JSON.stringify({ networks: { n: { endpoints: [{ fromRegistry: 'x' }] } } }),
      'istio-other',
    );
    expect(unknown([other]).map((f) => f.subject.namespace)).toEqual(['istio-other']);
    expect(
      unknown([other, GRID_NETWORKS])
        .map((f) => f.evidence.registry)
        .sort(),
    ).toEqual(['istio-testing', 'kubernetes']);
    expect(unknown([other, GRID_NETWORKS], 'istio-other').map((f) => f.evidence.registry)).toEqual([
      'x',
    ]);
  });

  it('says nothing without mesh networks, and never throws on odd shapes', () => {
    expect(found([])).toEqual([]);
    for (const meshNetworks of [
      undefined,
      '',
      'networks: {}',
      'networks: [',
      '- a',
      'networks: x',
      5,
    ]) {
      expect(found([istio(meshNetworks)])).toEqual([]);
    }
    const out = manifestFindings([
      istio(
        JSON.stringify({
          networks: {
            a: 'x',
            b: { endpoints: 'x' },
            c: { endpoints: [null, 'x', { fromRegistry: 7 }, { fromRegistry: '' }] },
          },
        }),
      ),
      secret('odd', REMOTE, 'x'),
      { ...secret('odd-labels', REMOTE, {}), metadata: { name: 'o', labels: 'x' } },
    ]).findings;
    expect(out.filter((f) => f.code === 'MDX0003')).toEqual([]);
    // an empty fromRegistry is a registry istiod does not have, as istioctl says
    expect(out.filter((f) => f.code === 'IST0126').map((f) => f.part?.name)).toEqual([
      'networks.c.endpoints[3]',
    ]);
  });

  it('reads the meshNetworks key as an object: {} when absent or empty, null when unreadable', () => {
    const ctx = (objects: unknown[]): RuleContext => {
      const screened = screenObjects(objects);
      return {
        input: 'files',
        screened,
        rootNamespace: 'istio-system',
        meshConfig: null,
        meshNetworksGiven: null,
        objects: (kind) => screened.objects.filter((o) => o.kind === kind),
      };
    };
    expect(meshNetworksOf(ctx([]))).toEqual({ namespace: 'istio-system', value: {} });
    expect(meshNetworksOf(ctx([istio('networks: {a: {}}', 'mesh')]))).toEqual({
      namespace: 'mesh',
      value: { networks: { a: {} } },
    });
    expect(meshNetworksOf(ctx([istio('{"networks": {}}')])).value).toEqual({ networks: {} });
    expect(meshNetworksOf(ctx([istio('')])).value).toEqual({});
    // a recursive alias is no JSON value; two documents are no one object
    expect(meshNetworksOf(ctx([istio('networks: &x [*x]')])).value).toBeNull();
    expect(meshNetworksOf(ctx([istio('---\na: 1\n---\nb: 2\n')])).value).toBeNull();
    expect(meshNetworksOf(ctx([istio(['x'])])).value).toBeNull();
    expect(meshNetworksOf(ctx([{ ...istio(''), data: 'x' }])).value).toEqual({});
  });
});
