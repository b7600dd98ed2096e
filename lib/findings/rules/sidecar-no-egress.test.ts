import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { gridObjects, upstreamObjects } from '../../../test-support/analyzer-inputs';
import { readFixture } from '../../../test-support/fixtures';
import { parseManifestText } from '../input';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const CODE = 'MDX0311';
const mdx0311 = (objects: unknown[], rootNamespace?: string) =>
  manifestFindings(objects, rootNamespace === undefined ? {} : { rootNamespace }).findings.filter(
    (f) => f.code === CODE,
  );
const found = (objects: unknown[], rootNamespace?: string) =>
  mdx0311(objects, rootNamespace)
    .map((f) => objectKey(f.subject.namespace ?? '-', f.subject.name))
    .sort();
const sidecar = (name: string, namespace: string, spec: unknown, created?: string) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'Sidecar',
  metadata: { name, namespace, ...(created === undefined ? {} : { creationTimestamp: created }) },
  spec,
});
const pod = (name: string, namespace: string, labels: Record<string, string>, ambient = false) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name,
    namespace,
    labels,
    ...(ambient ? { annotations: { 'ambient.istio.io/redirection': 'enabled' } } : {}),
  },
  spec: { containers: [{ name: 'app', image: 'app' }] },
});
const ns = (name: string, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels },
});
const INGRESS = [
  { port: { number: 9080, protocol: 'HTTP', name: 'http' }, defaultEndpoint: '127.0.0.1:8080' },
];
const meshDefault = sidecar('default', 'istio-system', {
  egress: [{ hosts: ['./*', 'istio-system/*', 'shared/*'] }],
});
const pilotObjects = (file: string) =>
  parseManifestText(readFixture('istio_config', 'pilot_testdata_config', file), file).objects.map(
    (o) => o.object,
  );

describe('MDX0311 SidecarWithoutEgress', () => {
  it("reports istio#59376's case: an ingress-only workload Sidecar under a mesh default", () => {
    const [f, ...rest] = mdx0311([
      meshDefault,
      sidecar('web-ingress', 'shop', {
        workloadSelector: { labels: { app: 'web' } },
        ingress: INGRESS,
      }),
      pod('web-1', 'shop', { app: 'web' }),
      pod('web-2', 'shop', { app: 'web', version: 'v2' }),
      pod('cart-1', 'shop', { app: 'cart' }),
      pod('web-elsewhere', 'other', { app: 'web' }),
    ]);
    expect(rest).toEqual([]);
    expect(f?.severity).toBe('warning');
    expect(f?.subject).toEqual({ kind: 'Sidecar', namespace: 'shop', name: 'web-ingress' });
    expect(f?.evidence).toEqual({
      appliesTo: 'the pods it selects',
      selector: 'app=web',
      egress: 'missing',
      sets: 'ingress',
      pods: 'web-1, web-2',
      podCount: 2,
      overrides: 'istio-system/default',
      overriddenEgress: './*, istio-system/*, shared/*',
    });
    expect(f?.fix?.why).toContain('instead of the egress of istio-system/default');
    // the fix keeps its selector and ingress, and adds what the mesh default gave
    const yaml = parse(f?.fix?.yaml ?? '') as {
      metadata: { name: string; namespace: string };
      spec: { workloadSelector: unknown; ingress: unknown; egress: unknown };
    };
    expect(yaml.metadata).toEqual({ name: 'web-ingress', namespace: 'shop' });
    expect(yaml.spec.workloadSelector).toEqual({ labels: { app: 'web' } });
    expect(yaml.spec.ingress).toEqual(INGRESS);
    expect(yaml.spec.egress).toEqual([{ hosts: ['./*', 'istio-system/*', 'shared/*'] }]);
  });

  it('names the namespace default it overrides before the mesh default', () => {
    const [f] = mdx0311([
      meshDefault,
      sidecar('default', 'shop', { egress: [{ hosts: ['./*', 'istio-system/*', 'payments/*'] }] }),
      sidecar('web', 'shop', {
        workloadSelector: { labels: { app: 'web' } },
        outboundTrafficPolicy: { mode: 'REGISTRY_ONLY' },
        egress: [],
      }),
      pod('web-1', 'shop', { app: 'web' }),
    ]);
    expect(f?.evidence).toMatchObject({
      egress: 'empty list',
      sets: 'outboundTrafficPolicy',
      overrides: 'shop/default',
      overriddenEgress: './*, istio-system/*, payments/*',
    });
    const yaml = parse(f?.fix?.yaml ?? '') as { spec: { egress: unknown } };
    expect(yaml.spec.egress).toEqual([{ hosts: ['./*', 'istio-system/*', 'payments/*'] }]);
  });

  it("carries the default's exclusions over, never its import-nothing `~/*`", () => {
    const [f] = mdx0311([
      sidecar('default', 'istio-system', { egress: [{ hosts: ['~/*'] }] }),
      sidecar('default', 'shop', {
        egress: [{ hosts: ['./*', 'payments/*', '~payments/ledger.payments.svc.cluster.local'] }],
      }),
      sidecar('web', 'shop', { workloadSelector: { labels: { app: 'web' } }, ingress: INGRESS }),
      sidecar('api', 'api', { workloadSelector: { labels: { app: 'api' } }, ingress: INGRESS }),
      pod('web-1', 'shop', { app: 'web' }),
      pod('api-1', 'api', { app: 'api' }),
    ]).filter((x) => x.subject.name === 'web');
    expect((parse(f?.fix?.yaml ?? '') as { spec: { egress: unknown } }).spec.egress).toEqual([
      {
        hosts: [
          './*',
          'istio-system/*',
          'payments/*',
          '~payments/ledger.payments.svc.cluster.local',
        ],
      },
    ]);
    const api = mdx0311([
      sidecar('default', 'istio-system', { egress: [{ hosts: ['~/*'] }] }),
      sidecar('api', 'api', { workloadSelector: { labels: { app: 'api' } }, ingress: INGRESS }),
    ])[0];
    expect(api?.evidence.overriddenEgress).toBe('~/*');
    expect((parse(api?.fix?.yaml ?? '') as { spec: { egress: unknown } }).spec.egress).toEqual([
      { hosts: ['./*', 'istio-system/*'] },
    ]);
  });

  it('reports a namespace default and the mesh default without egress, at their level', () => {
    const objects = [
      sidecar('default', 'istio-system', { outboundTrafficPolicy: { mode: 'REGISTRY_ONLY' } }),
      sidecar('default', 'shop', { ingress: INGRESS, egress: null }),
      pod('cart-1', 'shop', { app: 'cart' }),
      pod('api-1', 'api', { app: 'api' }),
      pod('istiod-1', 'istio-system', { app: 'istiod' }),
    ];
    const byName = new Map(mdx0311(objects).map((f) => [f.subject.namespace, f]));
    expect([...byName.keys()].sort()).toEqual(['istio-system', 'shop']);
    expect(byName.get('shop')?.evidence).toMatchObject({
      appliesTo: 'namespace shop',
      selector: null,
      egress: 'missing',
      pods: 'cart-1',
      // the mesh default has no egress either: it drops nothing
      overrides: 'istio-system/default',
      overriddenEgress: null,
    });
    expect(byName.get('istio-system')?.evidence).toMatchObject({
      appliesTo: 'every namespace without its own default Sidecar',
      pods: 'api-1, istiod-1',
      podCount: 2,
      overrides: null,
    });
    // the mesh default's `./*` is each proxy's own namespace: the control plane is named
    const mesh = parse(byName.get('istio-system')?.fix?.yaml ?? '') as {
      spec: { egress: unknown };
    };
    expect(mesh.spec.egress).toEqual([{ hosts: ['./*', 'istio-system/*'] }]);
  });

  it("takes the mesh config's root namespace as the mesh default's", () => {
    const objects = [
      sidecar('default', 'mesh-root', { ingress: INGRESS }),
      sidecar('default', 'istio-system', { ingress: INGRESS }),
      pod('a', 'apps', {}),
    ];
    const [root, other] = [...mdx0311(objects, 'mesh-root')].sort((a, b) =>
      (a.subject.namespace ?? '').localeCompare(b.subject.namespace ?? ''),
    );
    expect(other?.evidence.appliesTo).toBe('every namespace without its own default Sidecar');
    expect(other?.subject.namespace).toBe('mesh-root');
    expect(root?.evidence.appliesTo).toBe('namespace istio-system');
    expect(root?.evidence.overrides).toBe('mesh-root/default');
  });

  it('reports nothing for Sidecars with egress: the shared and upstream inputs', () => {
    expect(found(gridObjects('deprecation.yaml'))).toEqual([]);
    for (const file of ['none.yaml', 'se-example.yaml', 'se-example-gw.yaml'])
      expect(found(pilotObjects(file))).toEqual([]);
    // an egress listener without hosts is an egress (validation refuses it; MDX0304's)
    expect(found([sidecar('x', 'shop', { egress: [{ hosts: [] }] })])).toEqual([]);
    expect(
      found([sidecar('x', 'shop', { egress: [{ port: { number: 80 }, hosts: ['./*'] }] })]),
    ).toEqual([]);
  });

  it("leaves a Sidecar that sets nothing else to Istio's validation, which refuses it", () => {
    expect(
      found([
        sidecar('selector-only', 'shop', { workloadSelector: { labels: { app: 'web' } } }),
        sidecar('empty-egress', 'shop', { egress: [] }),
        sidecar('empty-ingress', 'other', { ingress: [], outboundTrafficPolicy: null }),
        sidecar('pool', 'pool', { inboundConnectionPool: { tcp: { maxConnections: 10 } } }),
        pod('web-1', 'shop', { app: 'web' }),
      ]),
    ).toEqual(['pool/pool']);
  });

  it('leaves Sidecars that apply only to ambient pods to IST0167', () => {
    // upstream's ns-ambient: a selector Sidecar of an ambient pod; the spec-less ones are MDX0002
    expect(found(upstreamObjects('sidecar-default-selector.yaml'))).toEqual([]);
    expect(
      found([
        ns('mesh-ambient', { 'istio.io/dataplane-mode': 'ambient' }),
        sidecar('default', 'mesh-ambient', { ingress: INGRESS }),
        ns('mixed'),
        pod('a-1', 'mixed', { app: 'a' }, true),
        pod('a-2', 'mixed', { app: 'a' }),
        pod('b-1', 'mixed', { app: 'b' }, true),
        sidecar('a', 'mixed', { workloadSelector: { labels: { app: 'a' } }, ingress: INGRESS }),
        sidecar('b', 'mixed', { workloadSelector: { labels: { app: 'b' } }, ingress: INGRESS }),
      ]),
    ).toEqual(['mixed/a']);
  });

  it('counts the pods istiod gives it: its namespace only, the oldest of two selectors', () => {
    const [old, young] = mdx0311([
      sidecar(
        'young',
        'shop',
        { workloadSelector: { labels: { app: 'web' } }, ingress: INGRESS },
        '2026-02-01T00:00:00Z',
      ),
      sidecar(
        'old',
        'shop',
        { workloadSelector: { labels: { tier: 'front' } }, ingress: INGRESS },
        '2026-01-01T00:00:00Z',
      ),
      pod('web-1', 'shop', { app: 'web', tier: 'front' }),
      pod('web-2', 'shop', { app: 'web' }),
      pod('web-3', 'other', { app: 'web', tier: 'front' }),
    ]).sort((a, b) => a.subject.name.localeCompare(b.subject.name));
    expect([old?.subject.name, old?.evidence.pods]).toEqual(['old', 'web-1']);
    expect([young?.subject.name, young?.evidence.pods]).toEqual(['young', 'web-2']);
  });

  it('still reports a selector that selects no pod (IST0101 says that), with no pods', () => {
    const [f] = mdx0311([
      sidecar('ghost', 'shop', {
        workloadSelector: { labels: { app: 'ghost' } },
        ingress: INGRESS,
      }),
    ]);
    expect(f?.evidence).toMatchObject({ pods: null, podCount: 0, overrides: null });
  });

  it('takes a selector without labels as no selector, as every Sidecar check does', () => {
    const [f] = mdx0311([
      sidecar('ns-wide', 'shop', { workloadSelector: { labels: {} }, ingress: INGRESS }),
      pod('a', 'shop', { app: 'a' }),
    ]);
    expect(f?.evidence).toMatchObject({ appliesTo: 'namespace shop', selector: null, pods: 'a' });
  });

  it('never throws on malformed Sidecars: they are MDX0002 and left out', () => {
    const objects = [
      sidecar('no-spec', 'shop', undefined),
      sidecar('string-spec', 'shop', 'egress'),
      sidecar('string-egress', 'shop', { egress: './*' }),
      sidecar('null-listener', 'shop', { egress: [null] }),
      sidecar('string-selector', 'shop', { workloadSelector: 'app=web', ingress: INGRESS }),
      sidecar('number-labels', 'shop', { workloadSelector: { labels: { app: 1 } } }),
      sidecar('hosts-not-list', 'shop', { egress: [{ hosts: 'a/*' }] }),
      pod('web-1', 'shop', { app: 'web' }),
    ];
    const all = manifestFindings(objects).findings;
    expect(all.filter((f) => f.code === 'MDX0003')).toEqual([]);
    expect(all.filter((f) => f.code === CODE)).toEqual([]);
    expect(
      all
        .filter((f) => f.code === 'MDX0002')
        .map((f) => f.subject.name)
        .sort(),
    ).toEqual([
      'hosts-not-list',
      'no-spec',
      'null-listener',
      'number-labels',
      'string-egress',
      'string-selector',
      'string-spec',
    ]);
  });

  it('shows five pods and counts the rest', () => {
    const pods = Array.from({ length: 7 }, (_, i) => pod(`web-${i}`, 'shop', { app: 'web' }));
    const [f] = mdx0311([
      sidecar('web', 'shop', { workloadSelector: { labels: { app: 'web' } }, ingress: INGRESS }),
      ...pods,
    ]);
    expect(f?.evidence.pods).toBe('web-0, web-1, web-2, web-3, web-4 (+2 more)');
    expect(f?.evidence.podCount).toBe(7);
  });
});
