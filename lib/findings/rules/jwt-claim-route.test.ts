import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
/** A cluster's own objects unless said (files: istioctl adds its stand-in ingress pod). */
type Input = 'files' | 'cluster';
const all = (objects: unknown[], rootNamespace?: string, input: Input = 'cluster') =>
  manifestFindings(objects, {
    ...(rootNamespace === undefined ? {} : { rootNamespace }),
    given: { input },
  }).findings;
const found = (objects: unknown[], rootNamespace?: string, input: Input = 'cluster') =>
  all(objects, rootNamespace, input)
    .filter((f) => f.code === 'IST0149')
    .map(
      (f) =>
        `${objectKey(f.subject.namespace ?? '-', f.subject.name)}: ${String(f.evidence.pod)} via ${String(f.evidence.gateway)}`,
    )
    .sort();

const CLAIM = { '@request.auth.claims.group': { exact: 'admin' } };
const vs = (
  name: string,
  gateways: unknown,
  match: unknown = [{ headers: CLAIM }],
  namespace = 'shop',
) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'VirtualService',
  metadata: { name, namespace },
  spec: {
    hosts: ['a.example.com'],
    gateways,
    http: [{ match, route: [{ destination: { host: 'a' } }] }],
  },
});
const gateway = (
  name: string,
  selector: unknown,
  namespace = 'shop',
  apiVersion = 'networking.istio.io/v1',
) => ({
  apiVersion,
  kind: 'Gateway',
  metadata: { name, namespace },
  spec: {
    selector,
    servers: [{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*'] }],
  },
});
const pod = (name: string, namespace: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { containers: [{ name: 'c', image: 'i' }] },
});
const ra = (name: string, namespace: string, selector?: unknown) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'RequestAuthentication',
  metadata: { name, namespace },
  spec: {
    ...(selector === undefined ? {} : { selector: { matchLabels: selector } }),
    jwtRules: [{ issuer: 'https://issuer', jwksUri: 'https://issuer/jwks' }],
  },
});
const GW = { istio: 'ingressgateway' };
const STAND_IN = 'istio-system/istio-ingressgateway-dummypod';
/** A cluster's listing: istiod's pod in istio-system, the gateway's pods in `ingress`. */
const cluster = [
  pod('istiod-1', 'istio-system', { app: 'istiod' }),
  pod('gw-1', 'ingress', GW),
  pod('gw-2', 'ingress', GW),
  pod('app-1', 'shop', { app: 'a' }),
];

describe('IST0149 JwtClaimBasedRoutingWithoutRequestAuthN (virtualservice.JWTClaimRouteAnalyzer)', () => {
  it("reports istioctl's grid file on istioctl's stand-in ingress gateway pod", () => {
    const f = all(grid('virtualservice_jwtclaimroute.yaml'), undefined, 'files').filter(
      (x) => x.code === 'IST0149',
    );
    expect(f.map((x) => [x.subject.name, x.evidence])).toEqual([
      [
        'foo',
        {
          claimHeader: '@request.auth.claims.foo',
          gateway: 'default/foo-gateway',
          pod: STAND_IN,
          standInPod: true,
        },
      ],
    ]);
    expect(f[0]?.severity).toBe('error');
    expect(f[0]?.fix?.yaml).toContain('namespace: istio-system');
    // a RequestAuthentication of istio-system that selects the stand-in answers it
    expect(
      found(
        [...grid('virtualservice_jwtclaimroute.yaml'), ra('jwt', 'istio-system', GW)],
        undefined,
        'files',
      ),
    ).toEqual([]);
    expect(
      found(
        [...grid('virtualservice_jwtclaimroute.yaml'), ra('jwt', 'istio-system')],
        undefined,
        'files',
      ),
    ).toEqual([]);
    expect(
      found(
        [...grid('virtualservice_jwtclaimroute.yaml'), ra('jwt', 'istio-system', { app: 'x' })],
        undefined,
        'files',
      ),
    ).toEqual([`default/foo: ${STAND_IN} via default/foo-gateway`]);
  });

  it("judges a cluster's own gateway pods, with the RequestAuthentications of their namespace, istio-system and the root", () => {
    const objects = [...cluster, gateway('gw', GW), vs('r', ['gw'])];
    expect(found(objects)).toEqual([
      'shop/r: ingress/gw-1 via shop/gw',
      'shop/r: ingress/gw-2 via shop/gw',
    ]);
    expect(found([...objects, ra('jwt', 'ingress', GW)])).toEqual([]);
    expect(found([...objects, ra('jwt', 'istio-system', GW)])).toEqual([]);
    // another namespace's does not apply; nor does one selecting other pods
    expect(
      found([...objects, ra('jwt', 'shop', GW), ra('jwt2', 'ingress', { app: 'gw' })]),
    ).toHaveLength(2);
    // one pod covered, the other not
    expect(
      found([
        ...objects.map((o) => (o === cluster[2] ? pod('gw-2', 'ingress', { ...GW, v: '2' }) : o)),
        ra('jwt', 'ingress', { v: '2' }),
      ]),
    ).toEqual(['shop/r: ingress/gw-1 via shop/gw']);
    // a root namespace other than istio-system applies mesh-wide too
    expect(found([...objects, ra('jwt', 'mesh-root')], 'mesh-root')).toEqual([]);
    expect(found([...objects, ra('jwt', 'mesh-root')])).toHaveLength(2);
  });

  it('recognises claim headers as Istio does, in headers and withoutHeaders', () => {
    const objects = (match: unknown) => [
      ...cluster.slice(0, 2),
      gateway('gw', GW),
      vs('r', ['gw'], match),
    ];
    for (const key of [
      '@request.auth.claims.a',
      '@Request.Auth.Claims[groups]',
      '@request.auth.claims[a][b]',
    ]) {
      expect([key, found(objects([{ headers: { [key]: { exact: 'x' } } }]))]).toEqual([
        key,
        ['shop/r: ingress/gw-1 via shop/gw'],
      ]);
    }
    expect(found(objects([{ uri: { prefix: '/' } }, { withoutHeaders: CLAIM }]))).toHaveLength(1);
    for (const key of [
      '@request.auth.claims',
      '@request.auth.claims.',
      '@request.auth.claims[]',
      'x-claim',
      ':authority',
    ]) {
      expect([key, found(objects([{ headers: { [key]: { exact: 'x' } } }]))]).toEqual([key, []]);
    }
  });

  it('follows the gateway references as istioctl does', () => {
    const base = [...cluster];
    expect(
      found([
        ...base,
        gateway('gw', GW, 'ingress'),
        gateway('gw', GW, 'shop', 'gateway.networking.k8s.io/v1'),
        vs('mesh-only', ['mesh']),
        vs('missing', ['nope', 'other/gw']),
        vs('api', ['gw']),
        vs('full', ['mesh', 'ingress/gw', 'ingress/gw']),
        vs('none', undefined),
      ]),
    ).toEqual(['shop/full: ingress/gw-1 via ingress/gw', 'shop/full: ingress/gw-2 via ingress/gw']);
    // an empty selector takes every pod, of any namespace
    expect(found([...base, gateway('all', {}), vs('r', ['all'])])).toEqual([
      'shop/r: ingress/gw-1 via shop/all',
      'shop/r: ingress/gw-2 via shop/all',
      'shop/r: istio-system/istiod-1 via shop/all',
      'shop/r: shop/app-1 via shop/all',
    ]);
    // two gateways selecting one pod: once each
    expect(
      found([...cluster.slice(0, 2), gateway('a', GW), gateway('b', GW), vs('r', ['a', 'b'])]),
    ).toEqual(['shop/r: ingress/gw-1 via shop/a', 'shop/r: ingress/gw-1 via shop/b']);
  });

  it('survives objects of odd shapes', () => {
    const odd = [
      ...cluster.slice(0, 2),
      gateway('gw', GW),
      gateway('bad', 'x'),
      {
        kind: 'RequestAuthentication',
        metadata: { name: 'r', namespace: 'ingress' },
        spec: { selector: 'x' },
      },
      vs('ok', ['gw']),
      vs('a', 'gw'),
      vs('b', ['bad', 3, null]),
      vs('c', ['gw'], 'x'),
      vs('d', ['gw'], [null, { headers: 'x' }, { withoutHeaders: [] }]),
      {
        kind: 'VirtualService',
        metadata: { name: 'e', namespace: 'shop' },
        spec: { gateways: ['gw'], http: 'x' },
      },
      { kind: 'VirtualService', metadata: { name: 'f', namespace: 'shop' } },
    ];
    // a RequestAuthentication whose selector istioctl cannot read selects nothing
    expect(found(odd)).toEqual(['shop/ok: ingress/gw-1 via shop/gw']);
    const empty = { kind: 'RequestAuthentication', metadata: { name: 'r', namespace: 'ingress' } };
    expect(found([...odd, empty])).toEqual([]);
    expect(all(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
