import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const upstream = upstreamObjects;
type Input = 'files' | 'cluster';
const found = (objects: unknown[], input: Input = 'files', rootNamespace?: string) =>
  manifestFindings(objects, { given: { input }, ...(rootNamespace ? { rootNamespace } : {}) })
    .findings.filter(
      (f) =>
        f.subject.kind === 'AuthorizationPolicy' && (f.code === 'IST0127' || f.code === 'IST0101'),
    )
    .map(
      (f) =>
        `${f.code} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}${f.code === 'IST0101' ? ` ${String(f.evidence.ref)}` : ''}`,
    )
    .sort();
const ns = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});
const pod = (
  name: string,
  namespace: string,
  labels: Record<string, string>,
  containers: unknown[] = [{ name: 'istio-proxy', image: 'proxyv2' }],
  annotations: Record<string, string> = {},
) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels, annotations },
  spec: { containers },
});
const policy = (name: string, namespace: string, spec?: unknown) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'AuthorizationPolicy',
  metadata: { name, namespace },
  ...(spec === undefined ? {} : { spec }),
});
const selecting = (matchLabels: Record<string, string>) => ({ selector: { matchLabels } });
const fromNamespaces = (namespaces: unknown, key = 'namespaces') => ({
  rules: [{ from: [{ source: { [key]: namespaces } }] }],
});

describe('IST0127 / IST0101 (namespace) on AuthorizationPolicies (authz.AuthorizationPoliciesAnalyzer)', () => {
  it("reports istioctl's upstream file as istioctl does", () => {
    expect(found(upstream('authorizationpolicies.yaml'))).toEqual([
      'IST0101 httpbin/httpbin-bogus-not-ns *-bogus',
      'IST0101 httpbin/httpbin-bogus-not-ns bogus-*',
      'IST0101 httpbin/httpbin-bogus-ns *-bogus',
      'IST0101 httpbin/httpbin-bogus-ns bogus-*',
      'IST0127 httpbin-empty/httpbin-empty-namespace-wide',
      'IST0127 httpbin/httpbin-nopods',
      'IST0127 istio-system/meshwide-httpbin-v1',
      'IST0127 test-ambient/no-workload',
    ]);
    const sev = manifestFindings(upstream('authorizationpolicies.yaml')).findings.find(
      (f) => f.code === 'IST0127',
    );
    expect(sev?.severity).toBe('warning');
  });

  it('counts only mesh pods, as istioctl tells them', () => {
    const objects = [
      ns('inj', { 'istio-injection': 'enabled' }),
      ns('plain'),
      pod('sidecar', 'plain', { app: 'a' }),
      pod('no-proxy', 'plain', { app: 'b' }, [{ name: 'app', image: 'app' }]),
      pod('proxy-without-image', 'plain', { app: 'c' }, [{ name: 'istio-proxy' }]),
      pod('by-label', 'plain', { app: 'd', 'sidecar.istio.io/inject': 'true' }, []),
      pod('opted-out', 'inj', { app: 'e', 'sidecar.istio.io/inject': 'false' }, []),
      pod('by-namespace', 'inj', { app: 'f' }, []),
      pod('ambient', 'plain', { app: 'g' }, [], { 'ambient.istio.io/redirection': 'enabled' }),
      // a native sidecar: istio-proxy among the init containers
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'init-proxy', namespace: 'plain', labels: { app: 'h' } },
        spec: {
          initContainers: [{ name: 'istio-proxy', image: 'proxyv2' }],
          containers: [{ name: 'app', image: 'app' }],
        },
      },
      ...['a', 'b', 'c', 'd', 'g', 'h'].map((a) =>
        policy(`p-${a}`, 'plain', selecting({ app: a })),
      ),
      ...['e', 'f'].map((a) => policy(`p-${a}`, 'inj', selecting({ app: a }))),
    ];
    expect(found(objects)).toEqual(['IST0127 inj/p-e', 'IST0127 plain/p-b', 'IST0127 plain/p-c']);
  });

  it('takes the root namespace as mesh-wide: a selector there matches mesh pods anywhere', () => {
    const objects = [
      pod('web', 'shop', { app: 'web' }),
      policy('mesh-web', 'istio-system', selecting({ app: 'web' })),
      policy('mesh-ghost', 'istio-system', selecting({ app: 'ghost' })),
      policy('mesh-all', 'istio-system', {}),
      policy('no-spec', 'istio-system'),
      policy('ns-web', 'other', selecting({ app: 'web' })),
    ];
    expect(found(objects)).toEqual(['IST0127 istio-system/mesh-ghost', 'IST0127 other/ns-web']);
    // another root namespace (the mesh config's rootNamespace)
    expect(found(objects, 'files', 'mesh-root')).toEqual([
      'IST0127 istio-system/mesh-all',
      'IST0127 istio-system/mesh-ghost',
      'IST0127 istio-system/mesh-web',
      'IST0127 istio-system/no-spec',
      'IST0127 other/ns-web',
    ]);
  });

  it('an empty selector or none needs one mesh pod in the namespace', () => {
    expect(
      found([
        pod('web', 'shop', { app: 'web' }),
        policy('empty-selector', 'shop', { selector: {} }),
        policy('none', 'shop', { action: 'DENY' }),
        policy('empty-elsewhere', 'pay', { selector: { matchLabels: {} } }),
      ]),
    ).toEqual(['IST0127 pay/empty-elsewhere']);
  });

  it('matches source namespaces with *, prefix* and *suffix, each entry once', () => {
    const objects = [
      ns('prod-shop'),
      ns('shop-test'),
      pod('web', 'shop-test', { app: 'web' }),
      policy(
        'refs',
        'shop-test',
        fromNamespaces(['prod-*', '*-test', 'Shop-Test', '*', 'nope', 'x*']),
      ),
      policy('not-refs', 'shop-test', fromNamespaces(['ghost'], 'notNamespaces')),
    ];
    expect(found(objects)).toEqual([
      'IST0101 shop-test/not-refs ghost',
      'IST0101 shop-test/refs nope',
      'IST0101 shop-test/refs x*',
    ]);
    // no Namespace read at all: istioctl reports every entry, even *
    expect(found([policy('star', 'a', { selector: {}, ...fromNamespaces(['*']) })])).toContain(
      'IST0101 a/star *',
    );
  });

  it("counts istioctl's stand-in ingress pod on files only when its namespace injects", () => {
    const gw = policy('gw', 'istio-system', selecting({ istio: 'ingressgateway' }));
    expect(found([gw])).toEqual(['IST0127 istio-system/gw']);
    expect(found([ns('istio-system', { 'istio-injection': 'enabled' }), gw])).toEqual([]);
    expect(found([ns('istio-system', { 'istio-injection': 'enabled' }), gw], 'cluster')).toEqual([
      'IST0127 istio-system/gw',
    ]);
  });

  it('never throws on malformed policies and pods', () => {
    const objects = [
      pod('web', 'shop', { app: 'web' }),
      policy('spec-list', 'shop', []),
      policy('selector-string', 'shop', { selector: 'app=web' }),
      policy('labels-list', 'shop', { selector: { matchLabels: ['app'] } }),
      policy('rules-string', 'shop', { rules: 'all' }),
      policy('bad-from', 'shop', {
        rules: [{ from: [null, { source: 'x' }, { source: { namespaces: 'a' } }] }],
      }),
      policy('ns-numbers', 'shop', fromNamespaces([1, null])),
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bad', namespace: 'shop' }, spec: 'x' },
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(found(objects)).toEqual([]);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
