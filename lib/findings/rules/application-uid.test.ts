import { describe, expect, it } from 'vitest';
import { manifestFindings } from '../manifest';
import { defineCatalog } from '../catalog';
import { defineRule } from './rule';

const pod = (name: string, spec: unknown, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'shop', labels },
  spec,
});
const ist0144 = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter((f) => f.code === 'IST0144');

describe('IST0144 InvalidApplicationUID', () => {
  it('reports UID 1337 at the pod level and in an application container, once per object', () => {
    const found = ist0144([
      pod('pod-level', { securityContext: { runAsUser: 1337 }, containers: [{ name: 'app' }] }),
      pod('container-level', {
        containers: [
          { name: 'app', securityContext: { runAsUser: 1337 } },
          { name: 'other', securityContext: { runAsUser: 1337 } },
        ],
      }),
    ]);
    expect(found.map((f) => [f.subject.name, f.evidence.at])).toEqual([
      ['container-level', 'containers[app]'],
      ['pod-level', 'securityContext'],
    ]);
    expect(found[0]?.severity).toBe('warning');
  });

  it("leaves istio-proxy's own UID, the control plane and other UIDs alone", () => {
    expect(
      ist0144([
        pod('proxy', {
          containers: [{ name: 'istio-proxy', securityContext: { runAsUser: 1337 } }],
        }),
        pod('istiod', { securityContext: { runAsUser: 1337 } }, { istio: 'pilot' }),
        pod('helm', { securityContext: { runAsUser: 1337 } }, { release: 'istio' }),
        pod('other', { securityContext: { runAsUser: 1000 }, containers: [] }),
        pod('string-uid', { securityContext: { runAsUser: '1337' }, containers: [] }),
      ]),
    ).toEqual([]);
  });

  it("reads a Deployment's pod template, and survives templates of the wrong shape", () => {
    const found = ist0144([
      {
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          template: {
            spec: { containers: [{ name: 'web', securityContext: { runAsUser: 1337 } }] },
          },
        },
      },
      { kind: 'Deployment', metadata: { name: 'odd' }, spec: { template: 'nope' } },
      {
        kind: 'Deployment',
        metadata: { name: 'odd2' },
        spec: { template: { spec: { containers: 'x' } } },
      },
    ]);
    expect(found.map((f) => [f.subject.kind, f.subject.namespace, f.subject.name])).toEqual([
      ['Deployment', 'default', 'web'],
    ]);
  });
});

describe('defineRule', () => {
  const catalog = defineCatalog('config', {
    x: {
      code: 'IST9999',
      severity: 'info',
      title: 'X',
      description: 'x',
      istio: { since: '1.0', why: 'a test entry' },
    },
  });
  it('refuses a rule that claims a code outside its catalog, or claims without an analyzer', () => {
    const check = () => [];
    expect(() =>
      defineRule({
        id: 'a',
        analyzer: 'a.A',
        catalog,
        claims: [{ code: 'IST0001', kinds: [] }],
        reads: [],
        check,
      }),
    ).toThrow(/claims IST0001, not in its catalog/);
    expect(() =>
      defineRule({
        id: 'b',
        analyzer: null,
        catalog,
        claims: [{ code: 'IST9999', kinds: [] }],
        reads: [],
        check,
      }),
    ).toThrow(/names no istioctl analyzer/);
  });
});
