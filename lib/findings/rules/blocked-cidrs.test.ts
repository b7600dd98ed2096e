import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = (file: string): unknown[] =>
  parseAllDocuments(readFixture('istio_config', 'analyzer', file)).map((d) => d.toJS() as unknown);
const all = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  all(objects)
    .filter((f) => f.code === 'IST0175')
    .map((f) => `${f.subject.kind} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}`)
    .sort();

const ra = (name: string, namespace = 'default', spec: unknown = { jwtRules: [] }) => ({
  apiVersion: 'security.istio.io/v1',
  kind: 'RequestAuthentication',
  metadata: { name, namespace },
  spec,
});
const istiod = (
  name: string,
  containers: unknown,
  labels: Record<string, string> = { app: 'istiod' },
) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'istio-system', labels },
  spec: {
    selector: { matchLabels: { app: 'istiod' } },
    template: { metadata: { labels: { app: 'istiod' } }, spec: { containers } },
  },
});
const discovery = (env: unknown) => [{ name: 'discovery', image: 'pilot', env }];
const BLOCKED = { name: 'BLOCKED_CIDRS_IN_JWKS_URIS', value: '10.0.0.0/8' };

describe('IST0175 JwksUriFetchUnrestricted (authn.BlockedCIDRsAnalyzer)', () => {
  it("reports istioctl's grid files as istioctl does", () => {
    expect(found(grid('blocked-cidrs-missing.yaml'))).toEqual(['Deployment istio-system/istiod']);
    expect(found(grid('blocked-cidrs-configured.yaml'))).toEqual([]);
    expect(found(grid('blocked-cidrs-no-ra.yaml'))).toEqual([]);
    const [f] = all(grid('blocked-cidrs-missing.yaml')).filter((x) => x.code === 'IST0175');
    expect(f?.evidence).toEqual({
      requestAuthentications: 2,
      names: 'default/jwt-auth, istio-system/jwt-auth-2',
      env: 'BLOCKED_CIDRS_IN_JWKS_URIS',
    });
    expect(f?.severity).toBe('warning');
  });

  it('needs a literal non-empty value in a container of each istiod Deployment', () => {
    expect(
      found([
        ra('r'),
        istiod('istiod', discovery([BLOCKED])),
        istiod('istiod-canary', discovery([{ name: 'BLOCKED_CIDRS_IN_JWKS_URIS', value: '' }])),
        istiod('istiod-ref', [
          {
            name: 'discovery',
            env: [{ name: 'BLOCKED_CIDRS_IN_JWKS_URIS', valueFrom: { configMapKeyRef: {} } }],
          },
        ]),
        istiod('istiod-side', [
          { name: 'discovery', env: [] },
          { name: 'side', env: [BLOCKED] },
        ]),
        istiod('not-istiod', discovery([]), { app: 'pilot' }),
        istiod('unlabelled', discovery([]), {}),
      ]),
    ).toEqual(['Deployment istio-system/istiod-canary', 'Deployment istio-system/istiod-ref']);
  });

  it('counts every RequestAuthentication, whatever its jwksUri, and names five', () => {
    const ras = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) =>
      ra(n, 'apps', { jwtRules: [{ jwks: '{}' }] }),
    );
    const [f] = all([...ras, istiod('istiod', discovery([]))]).filter((x) => x.code === 'IST0175');
    expect(f?.evidence.requestAuthentications).toBe(7);
    expect(f?.evidence.names).toBe('apps/a, apps/b, apps/c, apps/d, apps/e, and 2 more');
    expect(found([istiod('istiod', discovery([]))])).toEqual([]);
  });

  it('survives Deployments and RequestAuthentications of odd shapes', () => {
    const odd = [
      ra('r', 'default', 'x'),
      {
        kind: 'Deployment',
        metadata: { name: 'nospec', namespace: 'istio-system', labels: { app: 'istiod' } },
      },
      { ...istiod('tpl', []), spec: { template: 'x' } },
      istiod('containers', 'x'),
      istiod('env', [{ name: 'discovery', env: 'x' }, null, { env: [null, 3, { name: 5 }] }]),
    ];
    expect(found(odd)).toEqual([
      'Deployment istio-system/containers',
      'Deployment istio-system/env',
      'Deployment istio-system/nospec',
      'Deployment istio-system/tpl',
    ]);
    expect(all(odd).filter((x) => x.code === 'MDX0003')).toEqual([]);
  });
});
