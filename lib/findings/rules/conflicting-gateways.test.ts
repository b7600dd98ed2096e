import { describe, expect, it } from 'vitest';
import { gridObjects, upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = gridObjects;
const upstream = upstreamObjects;
/** Files (istioctl adds its default ingress to them), or a cluster's own objects. */
type Input = 'files' | 'cluster';
const run = (objects: unknown[], input: Input = 'files') =>
  manifestFindings(objects, { given: { input } }).findings;
const found = (objects: unknown[], input: Input = 'files') =>
  run(objects, input)
    .filter((f) => f.code === 'IST0145')
    .map((f) => `${objectKey(f.subject.namespace ?? '-', f.subject.name)}:${f.part?.name ?? ''}`)
    .sort();
const gw = (
  name: string,
  selector: unknown,
  servers: unknown,
  extra: { namespace?: string; apiVersion?: string } = {},
) => ({
  apiVersion: extra.apiVersion ?? 'networking.istio.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace: extra.namespace ?? 'edge' },
  spec: { selector, servers },
});
const server = (port: number, hosts: string[], bind?: string) => ({
  port: { number: port, name: `p${port}`, protocol: 'HTTP' },
  hosts,
  ...(bind === undefined ? {} : { bind }),
});
const pod = (name: string, namespace: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2' }] },
});
const ingress = { istio: 'ingressgateway' };

describe('IST0145 ConflictingGateways (gateway.ConflictingGatewayAnalyzer)', () => {
  it("agrees with istioctl's grid and upstream cases", () => {
    expect(found(grid('conflicting-gateways-multiple-ports.yaml'))).toEqual([
      'default/alpha:90',
      'default/beta:90',
    ]);
    expect(found(grid('conflicting-gateways-subSelector.yaml'))).toEqual([
      'default/alpha:80',
      'default/beta:80',
    ]);
    expect(found(grid('analyze-list-type.yaml'))).toEqual([
      'default/alpha-l:80',
      'default/alpha:80',
      'default/beta-l:80',
    ]);
    expect(found(grid('conflicting-gateways-invalid-port.yaml'))).toEqual([]);
    expect(found(grid('gateway-different-port.yaml'))).toEqual([]);
    const detect = upstream('conflicting-gateways.yaml');
    expect(found(detect)).toEqual(['default/alpha:80', 'default/beta:80']);
    const f = run(detect).find((x) => x.code === 'IST0145' && x.subject.name === 'alpha');
    expect(f?.severity).toBe('error');
    expect(f?.evidence).toEqual({
      conflictsWith: 'default/beta',
      selector: 'istio=ingressgateway',
      port: 80,
      hosts: 'foo.bar',
    });
  });

  it('needs the same bind, and a host written the same way', () => {
    expect(
      found([
        gw('a', ingress, [server(80, ['x.com'], '10.0.0.1')]),
        gw('b', ingress, [server(80, ['x.com'])]),
      ]),
    ).toEqual([]);
    expect(
      found([
        gw('a', ingress, [server(80, ['*.x.com'])]),
        gw('b', ingress, [server(80, ['a.x.com'])]),
      ]),
    ).toEqual([]);
    expect(
      found([
        gw('a', ingress, [server(80, ['x.com'], '10.0.0.1')]),
        gw('b', ingress, [server(80, ['y.com', 'x.com'], '10.0.0.1')]),
      ]),
    ).toEqual(['edge/a:80', 'edge/b:80']);
  });

  it('compares Gateways across namespaces, and ignores Gateway API Gateways', () => {
    expect(
      found([
        gw('a', ingress, [server(80, ['x.com'])], { namespace: 'team-a' }),
        gw('b', ingress, [server(80, ['x.com'])], { namespace: 'team-b' }),
        gw('k8s', ingress, [server(80, ['x.com'])], {
          apiVersion: 'gateway.networking.k8s.io/v1',
        }),
      ]),
    ).toEqual(['team-a/a:80', 'team-b/b:80']);
  });

  it('takes overlapping selectors for one workload only when some pod matches both', () => {
    const wide = gw('wide', ingress, [server(443, ['x.com'])]);
    const narrow = gw('narrow', { ...ingress, zone: 'a' }, [server(443, ['x.com'])]);
    expect(found([wide, narrow], 'cluster')).toEqual([]);
    expect(
      found([wide, narrow, pod('gw-1', 'edge', { istio: 'ingressgateway', zone: 'a' })], 'cluster'),
    ).toEqual(['edge/narrow:443', 'edge/wide:443']);
    // the empty selector is in every selector's text; the default ingress istioctl assumes for
    // files matches both; a cluster's own objects have only their own pods
    const any = gw('any', {}, [server(443, ['x.com'])]);
    expect(found([wide, any])).toEqual(['edge/any:443', 'edge/wide:443']);
    expect(
      found([wide, any, pod('istiod-1', 'istio-system', { app: 'istiod' })], 'cluster'),
    ).toEqual([]);
  });

  it('reports each conflicting server, and keeps the last server of a Gateway on a port', () => {
    const twice = gw('twice', ingress, [server(80, ['x.com']), server(80, ['y.com'])]);
    expect(found([twice, gw('other', ingress, [server(80, ['x.com', 'y.com'])])])).toEqual([
      'edge/other:80',
      'edge/twice:80',
      'edge/twice:80 (servers[1])',
    ]);
    // istioctl remembers y.com only for `twice` on port 80: x.com alone meets nothing there
    expect(found([twice, gw('other', ingress, [server(80, ['x.com'])])])).toEqual([
      'edge/twice:80',
    ]);
  });

  it('survives Gateways of the wrong shape', () => {
    const odd = [
      gw('string-selector', 'istio=ingressgateway', [server(80, ['x.com'])]),
      gw('servers-map', ingress, { port: { number: 80 } }),
      gw('odd-servers', ingress, [null, 'x', { port: { number: 'eighty' }, hosts: ['x.com'] }]),
      gw('no-hosts', ingress, [{ port: { number: 80 } }]),
      gw('hosts-string', ingress, [{ port: { number: 80 }, hosts: 'x.com' }]),
      gw('ok', ingress, [server(80, ['x.com'])]),
      { apiVersion: 'networking.istio.io/v1', kind: 'Gateway', metadata: { name: 'nospec' } },
    ];
    expect(found(odd)).toEqual([]);
    expect(run(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
