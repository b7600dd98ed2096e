import { describe, expect, it } from 'vitest';
import { gridObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const grid = gridObjects;
/** Files (istioctl adds its default ingress to them), or a cluster's own objects. */
type Input = 'files' | 'cluster';
const run = (objects: unknown[], input: Input = 'files') =>
  manifestFindings(objects, { given: { input } }).findings;
/** IST0162 as `ns/name:port`, IST0101 (selector) as `ns/name selector`. */
const found = (objects: unknown[], input: Input = 'files') =>
  run(objects, input)
    .filter(
      (f) =>
        f.subject.kind === 'Gateway' &&
        (f.code === 'IST0162' || (f.code === 'IST0101' && f.evidence.reftype === 'selector')),
    )
    .map((f) =>
      f.code === 'IST0162'
        ? `${objectKey(f.subject.namespace ?? '-', f.subject.name)}:${f.part?.name ?? ''}`
        : `${objectKey(f.subject.namespace ?? '-', f.subject.name)} IST0101 ${String(f.evidence.selector)}`,
    )
    .sort();
const gw = (name: string, selector: unknown, servers: unknown, apiVersion?: string) => ({
  apiVersion: apiVersion ?? 'networking.istio.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace: 'edge' },
  spec: { selector, servers },
});
const server = (number: unknown) => ({
  port: { number, name: 'p', protocol: 'HTTP' },
  hosts: ['*'],
});
const pod = (name: string, namespace: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace, labels },
  spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2' }] },
});
const svc = (name: string, namespace: string, selector: unknown, ports: unknown) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace },
  spec: { selector, ports },
});
const mine = { app: 'my-gateway' };
const myPod = pod('my-gateway-1', 'edge', mine);

describe('IST0162 GatewayPortNotDefinedOnService, IST0101 (gateway.IngressGatewayPortAnalyzer)', () => {
  it("agrees with istioctl's grid, the default ingress it assumes for files included", () => {
    expect(found(grid('gateway-no-workload.yaml'))).toEqual([
      'default/httpbin-gateway IST0101 istio=ingresstypo',
    ]);
    expect(found(grid('gateway-no-port.yaml'))).toEqual(['default/httpbin-gateway:8004']);
    expect(found(grid('gateway-correct-port.yaml'))).toEqual([]);
    expect(found(grid('gateway-custom-ingressgateway.yaml'))).toEqual([]);
    expect(found(grid('gateway-custom-ingressgateway-badport.yaml'))).toEqual([
      'default/httpbin-gateway:8004',
    ]);
    expect(found(grid('gateway-custom-ingressgateway-badport-notarget.yaml'))).toEqual([
      'default/httpbin-gateway:8004',
    ]);
    expect(found(grid('gateway-custom-ingressgateway-translation.yaml'))).toEqual([]);
    expect(found(grid('gateway-custom-ingressgateway-svcselector.yaml'))).toEqual([
      'default/httpbin8002-gateway:8002',
    ]);
    const f = run(grid('gateway-no-port.yaml')).find((x) => x.code === 'IST0162');
    expect(f?.severity).toBe('warning');
    expect(f?.evidence).toEqual({
      port: 8004,
      selector: 'istio=ingressgateway',
      servicePorts: '80, 443, 15443, 31400',
      assumedDefaultIngress: true,
    });
    const missing = run(grid('gateway-no-workload.yaml')).find((x) => x.code === 'IST0101');
    expect(missing?.severity).toBe('error');
  });

  it('assumes no default ingress for a cluster’s own objects, or with ingress off', () => {
    const files = grid('gateway-no-port.yaml');
    const istiod = pod('istiod-1', 'istio-system', { app: 'istiod' });
    expect(found([...files, istiod], 'cluster')).toEqual([
      'default/httpbin-gateway IST0101 istio=ingressgateway',
    ]);
    const off = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'istio', namespace: 'istio-system' },
      data: { mesh: 'ingressControllerMode: "OFF"\n' },
    };
    expect(found([...files, off])).toEqual([
      'default/httpbin-gateway IST0101 istio=ingressgateway',
    ]);
    // a cluster's own ingress gateway and its Service answer instead
    const real = pod('istio-ingressgateway-1', 'istio-system', { istio: 'ingressgateway' });
    const ports = [
      { port: 80, targetPort: 8080, protocol: 'TCP' },
      { port: 8004, targetPort: 8004, protocol: 'TCP' },
    ];
    expect(
      found(
        [
          ...files,
          real,
          svc('istio-ingressgateway', 'istio-system', { istio: 'ingressgateway' }, ports),
        ],
        'cluster',
      ),
    ).toEqual([]);
  });

  it("reads a Service's TCP ports and targetPorts; a port without protocol is TCP", () => {
    const servers = [8080, 9000, 9001, 9443, 5353].map(server);
    const ports = [
      { name: 'http', port: 80, targetPort: 8080 },
      { name: 'named', port: 9000, targetPort: 'http' },
      { name: 'digits', port: 1, targetPort: '9001' },
      { name: 'tls', port: 9443, protocol: 'TCP' },
      { name: 'dns', port: 5353, protocol: 'UDP' },
    ];
    expect(found([gw('g', mine, servers), myPod, svc('s', 'edge', mine, ports)])).toEqual([
      'edge/g:5353',
    ]);
  });

  it('takes Services of the pod namespace only; one without selector selects its namespace (as istioctl)', () => {
    const servers = [server(8443)];
    const ports = [{ port: 8443, protocol: 'TCP' }];
    expect(found([gw('g', mine, servers), myPod, svc('s', 'other', mine, ports)])).toEqual([
      'edge/g:8443',
    ]);
    expect(found([gw('g', mine, servers), myPod, svc('s', 'edge', undefined, ports)])).toEqual([]);
    expect(found([gw('g', mine, servers), myPod, svc('s', 'edge', { app: 'x' }, ports)])).toEqual([
      'edge/g:8443',
    ]);
  });

  it('reports each server, and leaves Gateway API Gateways and servers without a port number alone', () => {
    const servers = [server(7000), server(7000), { hosts: ['*'] }, { port: { name: 'x' } }];
    expect(
      found([
        gw('g', mine, servers),
        gw('k8s', mine, [server(7000)], 'gateway.networking.k8s.io/v1'),
        myPod,
      ]),
    ).toEqual(['edge/g:7000', 'edge/g:7000 (servers[1])']);
  });

  it('survives objects of the wrong shape', () => {
    const odd = [
      gw('string-selector', 'app=my-gateway', [server(1)]),
      gw('servers-map', mine, { port: { number: 1 } }),
      gw('odd-servers', mine, [null, 3, { port: 'x' }, { port: { number: -1 } }]),
      myPod,
      svc('ports-map', 'edge', mine, { port: 1 }),
      svc('odd-ports', 'edge', mine, [null, { port: 'x', protocol: 6 }]),
      svc('selector-list', 'edge', ['x'], [{ port: 1 }]),
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'nospec', namespace: 'edge' } },
      { apiVersion: 'networking.istio.io/v1', kind: 'Gateway', metadata: { name: 'nospec' } },
    ];
    // a Gateway without spec has the empty selector: it matches every pod, and serves no port
    expect(found(odd)).toEqual([]);
    expect(run(odd).filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
