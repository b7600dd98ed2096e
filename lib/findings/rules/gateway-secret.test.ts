import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { gridObjects, upstreamObjects } from '../../../test-support/analyzer-inputs';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';
import { credentialProblem } from './gateway-secret';
import { screenObjects } from '../screen';
import { ruleFindings, rulesNotRun } from '.';
import { certificateValidity } from './x509-validity';

const upstream = upstreamObjects;
const grid = gridObjects;
type Input = 'files' | 'cluster';
const found = (objects: unknown[], input: Input = 'files') =>
  manifestFindings(objects, { given: { input } })
    .findings.filter(
      (f) =>
        f.code === 'IST0161' || (f.code === 'IST0101' && f.evidence.reftype === 'credentialName'),
    )
    .map((f) => `${f.code} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}`)
    .sort();

/** The Secrets of the upstream files, by name: real certificates (a valid one, an expired one). */
const secretsOf = (text: string) =>
  new Map(
    parseAllDocuments(text)
      .map((d) => d.toJS() as { kind?: string; metadata?: { name: string }; data?: unknown })
      .filter((o) => o?.kind === 'Secret')
      .map((o) => [o.metadata?.name ?? '', o]),
  );
const GRID_SECRETS = secretsOf(readFixture('istio_config', 'analyzer', 'gateway-secrets.yaml'));
const VALID = GRID_SECRETS.get('httpbin-credential') as { data: Record<string, string> };
const secret = (name: string, namespace: string, data: unknown) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace },
  data,
});
const gateway = (
  name: string,
  namespace: string,
  servers: unknown,
  selector: unknown = { istio: 'ingressgateway' },
) => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'Gateway',
  metadata: { name, namespace },
  spec: { selector, servers },
});
const tlsServer = (credentialName: unknown) => ({
  port: { number: 443, name: 'https', protocol: 'HTTPS' },
  hosts: ['a.example.com'],
  tls: { mode: 'SIMPLE', credentialName },
});
const gatewayPod = (namespace: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: `gw-${namespace}`, namespace, labels },
  spec: { containers: [{ name: 'istio-proxy', image: 'proxyv2' }] },
});

describe('IST0161 InvalidGatewayCredential and IST0101 credentialName (gateway.SecretAnalyzer)', () => {
  it("reports istioctl's upstream validation file as istioctl does", () => {
    expect(found(upstream('gateway-secrets-validation.yaml'))).toEqual([
      'IST0161 default/defaultgateway-expired',
      'IST0161 default/defaultgateway-invalid-cert',
      'IST0161 default/defaultgateway-invalid-keys',
      'IST0161 default/defaultgateway-missing-keys',
    ]);
    const f = manifestFindings(upstream('gateway-secrets-validation.yaml')).findings.find(
      (x) => x.code === 'IST0161' && x.subject.name === 'defaultgateway-expired',
    );
    expect(f?.severity).toBe('error');
    expect(f?.evidence.problem).toBe('the certificate expired 2023-03-14T06:15:41.000Z');
  });

  it("reports the grid's credential that is not in the gateway's namespace, and no more", () => {
    // the selector misses are IngressGatewayPortAnalyzer's IST0101 (selector), not repeated
    expect(found(grid('gateway-secrets.yaml'))).toEqual([
      'IST0101 default/defaultgateway-bogusCredentialName',
    ]);
  });

  it("looks the Secret up in the namespace of the gateway's pods, or at ns/name", () => {
    const objects = [
      gatewayPod('edge', { app: 'edge' }),
      secret('cert', 'edge', VALID.data),
      secret('cert', 'apps', VALID.data),
      gateway('in-pod-ns', 'apps', [tlsServer('cert')], { app: 'edge' }),
      gateway('wrong-ns', 'apps', [tlsServer('only-in-apps')], { app: 'edge' }),
      gateway('full-name', 'apps', [tlsServer('apps/cert')], { app: 'edge' }),
      gateway('full-name-missing', 'apps', [tlsServer('other/cert')], { app: 'edge' }),
      gateway('no-credential', 'apps', [{ port: { number: 443 }, tls: { mode: 'SIMPLE' } }], {
        app: 'edge',
      }),
    ];
    expect(found(objects)).toEqual(['IST0101 apps/full-name-missing', 'IST0101 apps/wrong-ns']);
  });

  it('judges each server once, with either pair of keys', () => {
    const tlsData = {
      'tls.crt': VALID.data['tls.crt'] ?? '',
      'tls.key': VALID.data['tls.key'] ?? '',
    };
    const genericData = { cert: tlsData['tls.crt'], key: tlsData['tls.key'] };
    const objects = [
      secret('tls', 'istio-system', tlsData),
      secret('generic', 'istio-system', genericData),
      secret('empty-key', 'istio-system', { ...tlsData, 'tls.key': '' }),
      secret('no-data', 'istio-system', undefined),
      secret('not-base64', 'istio-system', { 'tls.crt': '%%%', 'tls.key': '%%%' }),
      gateway('gw', 'default', [
        tlsServer('tls'),
        tlsServer('generic'),
        tlsServer('empty-key'),
        tlsServer('no-data'),
        tlsServer('not-base64'),
      ]),
    ];
    const out = manifestFindings(objects).findings.filter((f) => f.code === 'IST0161');
    expect(out.map((f) => f.part?.name)).toEqual([
      'servers[2].tls.credentialName',
      'servers[3].tls.credentialName',
      'servers[4].tls.credentialName',
    ]);
  });

  it("uses istioctl's stand-in ingress gateway on files only", () => {
    const objects = [gateway('gw', 'default', [tlsServer('missing')])];
    expect(found(objects, 'files')).toEqual(['IST0101 default/gw']);
    // a cluster's objects: no pod matches, that is the selector IST0101 of the port analyzer
    expect(found(objects, 'cluster')).toEqual([]);
  });

  it('is not run when Secrets could not be read (a live cluster: meshdx declines them)', () => {
    const screened = screenObjects([gateway('gw', 'default', [tlsServer('missing')])], {
      kindsUnknown: { Secret: 'meshdx does not read Secrets (they hold credentials)' },
    });
    expect(rulesNotRun(screened).find((n) => n.rule === 'gateway-secret')?.codes).toEqual([
      'IST0101',
      'IST0161',
    ]);
    const codes = ruleFindings(screened, 'istio-system', { input: 'files' }).map((f) => f.code);
    expect(codes).not.toContain('IST0161');
    expect(codes).not.toContain('IST0101');
  });

  it('never throws on malformed Gateways and Secrets', () => {
    const objects = [
      secret('weird', 'istio-system', 'data'),
      secret('numbers', 'istio-system', { 'tls.crt': 1, 'tls.key': 2 }),
      gateway('bad-servers', 'default', 'servers'),
      gateway('bad-tls', 'default', [
        null,
        { tls: 'SIMPLE' },
        tlsServer(7),
        tlsServer('weird'),
        tlsServer('numbers'),
      ]),
      gateway('bad-selector', 'default', [tlsServer('x')], 'istio=ingressgateway'),
    ];
    expect(() => manifestFindings(objects)).not.toThrow();
    expect(found(objects)).toEqual(['IST0161 default/bad-tls', 'IST0161 default/bad-tls']);
    expect(manifestFindings(objects).findings.filter((f) => f.code === 'MDX0003')).toEqual([]);
  });
});

describe('certificateValidity and credentialProblem', () => {
  const pem = atob(VALID.data['tls.crt'] ?? '');
  it("reads the grid certificate's validity", () => {
    const v = certificateValidity(pem);
    expect(v?.notBefore.toISOString()).toBe('2023-03-14T02:54:30.000Z');
    expect(v?.notAfter.getUTCFullYear()).toBe(2122);
  });
  it('judges the time against the validity period', () => {
    const s = secret('s', 'ns', VALID.data) as unknown as Parameters<typeof credentialProblem>[0];
    expect(credentialProblem(s, Date.UTC(2024, 0, 1))).toBeNull();
    expect(credentialProblem(s, Date.UTC(2020, 0, 1))).toMatch(/not valid before 2023-03-14/);
    expect(credentialProblem(s, Date.UTC(2200, 0, 1))).toMatch(/expired 2122/);
  });
  it('refuses what is not a PEM certificate', () => {
    expect(certificateValidity('hush hush hush\n')).toBeNull();
    expect(
      certificateValidity('-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n'),
    ).toBeNull();
    expect(
      certificateValidity('-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n'),
    ).toBeNull();
    // a truncated certificate
    const lines = pem.split('\n');
    expect(certificateValidity([lines[0], lines[1], lines.at(-3)].join('\n'))).toBeNull();
  });
});
