import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import type { Gateway, KubeObject, Service } from '../kube/types';
import { l7Fields, namespaceReadiness, type ReadinessInput } from './readiness';
import { httpRouteFor, versionServices } from './rewrite';

const meta = (name: string) => ({ name, namespace: 'shop' });
const svc: Service = {
  metadata: meta('reviews'),
  spec: { selector: { app: 'reviews' }, ports: [{ name: 'http', port: 9080 }] },
};
const base = (over: Partial<ReadinessInput> = {}): ReadinessInput => ({
  namespace: 'shop',
  dataplane: 'none',
  pods: { sidecar: 3, ambient: 0, none: 0 },
  waypoint: null,
  waypoints: [],
  services: [svc],
  authorizationPolicies: [],
  peerAuthentications: [],
  envoyFilters: [],
  virtualServices: [],
  destinationRules: [],
  sidecars: [],
  gains: {
    raceWorkloads: [],
    drainWorkloads: [],
    sidecarProxies: 3,
    clustersCarried: 120,
    clustersMeasured: 3,
  },
  ...over,
});
const l7Policy = {
  metadata: meta('reviews-get'),
  spec: {
    selector: { matchLabels: { app: 'reviews' } },
    rules: [{ to: [{ operation: { methods: ['GET'], ports: ['9080'] } }] }],
  },
};

describe('ambient readiness', () => {
  it('tells L4 rules (ztunnel enforces them) from L7 ones', () => {
    expect(
      l7Fields({
        metadata: meta('l4'),
        spec: { rules: [{ to: [{ operation: { ports: ['80'] } }] }] },
      }),
    ).toEqual([]);
    expect(l7Fields(l7Policy)).toEqual(['to.operation.methods']);
    expect(
      l7Fields({
        metadata: meta('jwt'),
        spec: { rules: [{ when: [{ key: 'request.auth.claims[iss]' }] }] },
      }),
    ).toEqual(['when request.auth.claims[iss]']);
    expect(l7Fields({ metadata: meta('ext'), spec: { action: 'CUSTOM' } })).toEqual([
      'action CUSTOM',
    ]);
  });

  it('blocks on a selector-bound L7 policy and writes the targetRefs to its Service', () => {
    const r = namespaceReadiness(base({ authorizationPolicies: [l7Policy] }));
    expect(r.status).toBe('blocked');
    const f = r.findings[0];
    expect(f?.code).toBe('MDX0601');
    expect(f?.evidence.boundBy).toBe('selector');
    expect(f?.fix?.yaml).toContain('istioctl waypoint apply -n shop');
    expect(f?.fix?.yaml).toContain('kind: Service');
    expect(f?.fix?.yaml).toContain('name: reviews');
  });

  it('accepts a targetRefs policy once the namespace has a waypoint (the fixture Gateway)', () => {
    const gw = parseAllDocuments(readFixture('istio_config', 'analyzer', 'condition-analyzer.yaml'))
      .map((d) => d.toJS() as KubeObject)
      .find((o) => o.kind === 'Gateway') as Gateway;
    expect(gw.spec?.gatewayClassName).toBe('istio-waypoint');
    const bound = {
      ...l7Policy,
      spec: {
        ...l7Policy.spec,
        selector: undefined,
        targetRefs: [{ kind: 'Service', name: 'reviews' }],
      },
    };
    const r = namespaceReadiness(base({ authorizationPolicies: [bound], waypoints: [gw] }));
    expect(r.findings).toEqual([]);
    expect(r.status).toBe('ready');
  });

  it('rewrites VirtualServices and subsets, flags EnvoyFilters, mTLS off and Sidecars', () => {
    const vs = {
      metadata: meta('reviews'),
      spec: {
        hosts: ['reviews'],
        http: [
          {
            route: [
              { destination: { host: 'reviews', subset: 'v1' }, weight: 90 },
              { destination: { host: 'reviews', subset: 'v2' }, weight: 10 },
            ],
          },
        ],
      },
    };
    const dr = {
      metadata: meta('reviews'),
      spec: {
        host: 'reviews',
        subsets: [
          { name: 'v1', labels: { version: 'v1' } },
          { name: 'v2', labels: { version: 'v2' } },
        ],
      },
    };
    const r = namespaceReadiness(
      base({
        virtualServices: [
          vs,
          {
            metadata: meta('ingress'),
            spec: { hosts: ['shop.example.com'], gateways: ['istio-system/public'] },
          },
        ],
        destinationRules: [dr],
        envoyFilters: [{ metadata: meta('lua'), spec: { configPatches: [{}] } }],
        peerAuthentications: [
          { metadata: meta('off'), spec: { mtls: { mode: 'DISABLE' } } },
          { metadata: meta('strict'), spec: { mtls: { mode: 'STRICT' } } },
        ],
        sidecars: [{ metadata: meta('default'), spec: { egress: [{ hosts: ['./*'] }] } }],
      }),
    );
    expect(r.findings.map((f) => `${f.code} ${f.subject.name}`)).toEqual([
      'MDX0602 reviews',
      'MDX0603 lua',
      'MDX0604 off',
      'MDX0605 reviews',
      'MDX0606 default',
    ]);
    expect(httpRouteFor(vs, 'shop')).toContain('    - name: reviews-v2\n      weight: 10');
    const services = versionServices(dr, [svc], 'shop');
    expect(services.split('---')).toHaveLength(2);
    expect(services).toContain('name: reviews-v1');
    expect(services).toContain('    version: v1');
    expect(services).toContain('    app: reviews');
  });

  it('says mid-migration while sidecars remain in an ambient namespace', () => {
    const mid = namespaceReadiness(
      base({ dataplane: 'ambient', pods: { sidecar: 2, ambient: 4, none: 0 } }),
    );
    expect(mid.status).toBe('mid-migration');
    expect(mid.findings.map((f) => f.code)).toEqual(['MDX0607']);
    const done = namespaceReadiness(
      base({ dataplane: 'ambient', pods: { sidecar: 0, ambient: 6, none: 0 } }),
    );
    expect(done.status).toBe('migrated');
  });
});
