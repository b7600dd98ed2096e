import { describe, expect, it } from 'vitest';
import { jsonPatch, mergePatch, PatchError, patchTypeOf, strategicMergePatch } from './patch';
import { openApiV3Document, openApiV3Index, parseOpenApiV3Path } from './openapi';

describe('merge patch (RFC 7386)', () => {
  it('merges objects, deletes on null, replaces lists', () => {
    const cur = { metadata: { labels: { a: '1', b: '2' } }, spec: { hosts: ['x', 'y'] } };
    expect(
      mergePatch(cur, { metadata: { labels: { b: null, c: '3' } }, spec: { hosts: ['z'] } }),
    ).toEqual({ metadata: { labels: { a: '1', c: '3' } }, spec: { hosts: ['z'] } });
    expect(cur.metadata.labels).toEqual({ a: '1', b: '2' });
  });
});

describe('strategic merge patch', () => {
  const pod = {
    spec: {
      containers: [
        { name: 'app', image: 'app:1', env: [{ name: 'A', value: '1' }] },
        { name: 'istio-proxy', image: 'proxy:1' },
      ],
    },
  };
  it('merges lists of objects by name and honours $patch: delete and directives', () => {
    const out = strategicMergePatch(pod, {
      spec: {
        '$setElementOrder/containers': [{ name: 'app' }, { name: 'istio-proxy' }],
        containers: [
          { name: 'app', image: 'app:2' },
          { name: 'istio-proxy', $patch: 'delete' },
          { name: 'extra', image: 'x:1' },
        ],
      },
    });
    expect(out).toEqual({
      spec: {
        containers: [
          { name: 'app', image: 'app:2', env: [{ name: 'A', value: '1' }] },
          { name: 'extra', image: 'x:1' },
        ],
      },
    });
  });
  it('replaces lists of scalars and deletes map keys on null', () => {
    expect(
      strategicMergePatch({ a: [1, 2], b: { c: 1, d: 2 } }, { a: [3], b: { c: null } }),
    ).toEqual({ a: [3], b: { d: 2 } });
  });
});

describe('JSON patch (RFC 6902)', () => {
  it('adds, replaces, removes, tests, moves', () => {
    const doc = { data: { a: '1', b: '2' }, list: [1, 2] };
    expect(
      jsonPatch(doc, [
        { op: 'add', path: '/data/c', value: '3' },
        { op: 'replace', path: '/data/a', value: 'x' },
        { op: 'remove', path: '/data/b' },
        { op: 'test', path: '/data/c', value: '3' },
        { op: 'add', path: '/list/-', value: 3 },
        { op: 'move', from: '/data/c', path: '/data/d' },
      ]),
    ).toEqual({ data: { a: 'x', d: '3' }, list: [1, 2, 3] });
    expect(() => jsonPatch(doc, [{ op: 'remove', path: '/data/zz' }])).toThrow(PatchError);
    expect(() => jsonPatch(doc, [{ op: 'test', path: '/data/a', value: 'no' }])).toThrow(
      PatchError,
    );
  });
  it('names patch types by Content-Type', () => {
    expect(patchTypeOf('application/merge-patch+json')).toBe('merge');
    expect(patchTypeOf('application/strategic-merge-patch+json; charset=utf-8')).toBe('strategic');
    expect(patchTypeOf('application/apply-patch+yaml')).toBe('apply');
    expect(patchTypeOf('application/json')).toBeUndefined();
  });
});

describe('OpenAPI v3 for kubectl', () => {
  it('indexes every served group-version with a hashed URL', () => {
    const idx = openApiV3Index() as { paths: Record<string, { serverRelativeURL: string }> };
    expect(idx.paths['api/v1']?.serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=/);
    expect(idx.paths['apis/networking.istio.io/v1alpha3']).toBeDefined();
    expect(parseOpenApiV3Path('/openapi/v3/apis/networking.istio.io/v1')).toEqual({
      group: 'networking.istio.io',
      version: 'v1',
    });
  });
  it("declares fieldValidation on each kind's PATCH, tagged with its group-version-kind", () => {
    const doc = openApiV3Document('networking.istio.io', 'v1') as {
      paths: Record<
        string,
        { patch?: Record<string, unknown> & { parameters: { name: string }[] } }
      >;
    };
    const patch =
      doc.paths['/apis/networking.istio.io/v1/namespaces/{namespace}/sidecars/{name}']?.patch;
    expect(patch?.['x-kubernetes-group-version-kind']).toEqual({
      group: 'networking.istio.io',
      version: 'v1',
      kind: 'Sidecar',
    });
    expect(patch?.parameters.map((p) => p.name)).toContain('fieldValidation');
    expect(openApiV3Document('nope.example.com', 'v1')).toBeUndefined();
  });
});
