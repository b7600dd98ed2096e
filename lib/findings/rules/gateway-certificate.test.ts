import { describe, expect, it } from 'vitest';
import { upstreamObjects } from '../../../test-support/analyzer-inputs';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const upstream = upstreamObjects;
const ist0138 = (objects: unknown[]) =>
  manifestFindings(objects).findings.filter((f) => f.code === 'IST0138');
const found = (objects: unknown[]) =>
  ist0138(objects)
    .map((f) => objectKey(f.subject.namespace ?? '-', f.subject.name))
    .sort();
const gateway = (name: string, namespace: string, selector: unknown, servers: unknown) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace },
  spec: { selector, servers },
});
const https = (tls: unknown, host = 'a.example.com') => ({
  port: { number: 443, name: 'https', protocol: 'HTTPS' },
  hosts: [host],
  tls,
});
const cred = (credentialName: string, host?: string) =>
  https({ mode: 'SIMPLE', credentialName }, host);
const INGRESS = { istio: 'ingressgateway' };

describe('IST0138 GatewayDuplicateCertificate (gateway.CertificateAnalyzer)', () => {
  it("reports istioctl's upstream file as istioctl does", () => {
    expect(found(upstream('gateway-duplicate-certificate.yaml'))).toEqual([
      'default/gateway-01-test-03',
      'istio-system/gateway-01-test-01',
      'istio-system/gateway-01-test-02',
      'istio-system/gateway-02-test-01',
    ]);
    const f = ist0138(upstream('gateway-duplicate-certificate.yaml')).find(
      (x) => x.subject.name === 'gateway-01-test-02',
    );
    expect(f?.severity).toBe('warning');
    expect(f?.evidence).toEqual({
      gateways: 'istio-system/gateway-01-test-02, istio-system/gateway-02-test-02',
      certificate: 'test-02-wildcard-cert',
    });
  });

  it('reports the Gateway whose selector is a subset of the other only, across namespaces', () => {
    expect(
      found([
        gateway('narrow', 'a', INGRESS, [cred('c')]),
        gateway('wide', 'b', { ...INGRESS, zone: 'x' }, [cred('c')]),
        // another gateway deployment: not the same pods
        gateway('other-pods', 'a', { istio: 'egressgateway' }, [cred('c')]),
      ]),
    ).toEqual(['a/narrow']);
    // an empty selector is compared with every Gateway
    expect(
      found([gateway('all', 'a', {}, [cred('c')]), gateway('x', 'a', INGRESS, [cred('c')])]),
    ).toEqual(['a/all']);
  });

  it('reports once per pair of servers with the same certificate', () => {
    const out = ist0138([
      gateway('g1', 'a', INGRESS, [cred('c'), cred('c', 'b.example.com'), cred('d')]),
      gateway('g2', 'a', INGRESS, [cred('c')]),
    ]);
    expect(out.map((f) => `${f.subject.name} ${f.part?.name ?? ''}`).sort()).toEqual([
      'g1 servers[0] ~ a/g2 servers[0]',
      'g1 servers[1] ~ a/g2 servers[0]',
      'g2 servers[0] ~ a/g1 servers[0]',
      'g2 servers[0] ~ a/g1 servers[1]',
    ]);
  });

  it('compares files only when neither names a credential, and needs both cert and key', () => {
    const file = (cert: string, key?: string) =>
      https({ mode: 'SIMPLE', serverCertificate: cert, ...(key ? { privateKey: key } : {}) });
    expect(
      found([
        gateway('f1', 'a', INGRESS, [file('/c.pem', '/k.pem')]),
        gateway('f2', 'a', INGRESS, [file('/c.pem', '/k.pem')]),
      ]),
    ).toEqual(['a/f1', 'a/f2']);
    expect(
      found([
        gateway('k1', 'a', INGRESS, [file('/c.pem', '/k1.pem')]),
        gateway('k2', 'a', INGRESS, [file('/c.pem', '/k2.pem')]),
        gateway('nokey', 'b', INGRESS, [file('/d.pem')]),
        gateway('nokey2', 'b', INGRESS, [file('/d.pem')]),
        gateway('mixed', 'c', INGRESS, [
          https({ credentialName: 'x', serverCertificate: '/e.pem' }),
        ]),
        gateway('mixed2', 'c', INGRESS, [file('/e.pem', '/k.pem')]),
        gateway('plain', 'd', INGRESS, [{ port: { number: 80 }, hosts: ['*'] }]),
        gateway('plain2', 'd', INGRESS, [{ port: { number: 80 }, hosts: ['*'] }]),
        gateway('empty-tls', 'e', INGRESS, [https({})]),
        gateway('empty-tls2', 'e', INGRESS, [https({})]),
      ]),
    ).toEqual([]);
  });

  it('leaves Gateway API Gateways alone and never throws on malformed Gateways', () => {
    const objects = [
      {
        apiVersion: 'gateway.networking.k8s.io/v1',
        kind: 'Gateway',
        metadata: { name: 'k8s', namespace: 'a' },
        spec: { gatewayClassName: 'istio', listeners: [] },
      },
      gateway('bad-selector', 'a', 'istio=ingressgateway', [cred('c')]),
      gateway('bad-servers', 'a', INGRESS, 'servers'),
      gateway('bad-tls', 'a', INGRESS, [null, 3, { tls: 'SIMPLE' }, https({ credentialName: 7 })]),
      gateway('ok', 'a', INGRESS, [cred('c')]),
      { apiVersion: 'networking.istio.io/v1', kind: 'Gateway', metadata: { name: 'no-spec' } },
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(found(objects)).toEqual([]);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});
