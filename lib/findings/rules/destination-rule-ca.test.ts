import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { manifestFindings } from '../manifest';
import { objectKey } from '../../refs/object-ref';

const docs = (text: string): unknown[] => parseAllDocuments(text).map((d) => d.toJS() as unknown);
const grid = (file: string) => docs(readFixture('istio_config', 'analyzer', file));
const all = (objects: unknown[]) => manifestFindings(objects).findings;
const found = (objects: unknown[]) =>
  all(objects)
    .filter((f) => f.code === 'IST0128' || f.code === 'IST0129')
    .map(
      (f) =>
        `${f.code} ${objectKey(f.subject.namespace ?? '-', f.subject.name)}${f.part ? ` port ${f.part.name}` : ''} ${String(f.evidence.mode)}`,
    )
    .sort();

const dr = (name: string, spec: unknown, namespace = 'shop') => ({
  apiVersion: 'networking.istio.io/v1',
  kind: 'DestinationRule',
  metadata: { name, namespace },
  spec,
});
const HOST = 'db.prod.svc.cluster.local';

describe('IST0128/IST0129 (destinationrule.CaCertificateAnalyzer)', () => {
  it("reports istioctl's grid files as istioctl does", () => {
    const cases: [string, string[]][] = [
      ['destinationrule-simple-destination.yaml', ['IST0128 default/db-tls SIMPLE']],
      ['destinationrule-mutual-destination.yaml', ['IST0128 default/db-mtls MUTUAL']],
      ['destinationrule-simple-port.yaml', ['IST0129 default/db-tls port 443 SIMPLE']],
      ['destinationrule-mutual-port.yaml', ['IST0129 default/db-mtls port 443 MUTUAL']],
      [
        'destinationrule-compound-mutual-simple.yaml',
        ['IST0128 default/db-mtls SIMPLE', 'IST0129 default/db-mtls port 443 MUTUAL'],
      ],
      ['destinationrule-simple-destination-credentialname.yaml', ['IST0128 default/db-tls SIMPLE']],
      ['destinationrule-simple-destination-credentialname-selector.yaml', []],
      [
        'destinationrule-simple-port-credentialname.yaml',
        ['IST0129 default/db-tls port 443 SIMPLE'],
      ],
      ['destinationrule-simple-port-credentialname-selector.yaml', []],
      ['destinationrule-with-ca.yaml', []],
    ];
    for (const [file, expected] of cases)
      expect([file, found(grid(file))]).toEqual([file, expected]);
  });

  it("reports upstream's compound case that the shared grid lacks", () => {
    const text = fs.readFileSync(
      path.resolve(
        import.meta.dirname,
        '../../../tests/data/istio-analyzer/destinationrule-compound-simple-mutual.yaml',
      ),
      'utf8',
    );
    expect(found(docs(text))).toEqual([
      'IST0128 default/db-mtls MUTUAL',
      'IST0129 default/db-mtls port 443 SIMPLE',
    ]);
  });

  it('judges SIMPLE and MUTUAL only, by name or number, once per port', () => {
    expect(
      found([
        dr('istio', { host: HOST, trafficPolicy: { tls: { mode: 'ISTIO_MUTUAL' } } }),
        dr('off', { host: HOST, trafficPolicy: { tls: { mode: 'DISABLE' } } }),
        dr('lower', { host: HOST, trafficPolicy: { tls: { mode: 'simple' } } }),
        dr('none', { host: HOST, trafficPolicy: { tls: {} } }),
        dr('num', { host: HOST, trafficPolicy: { tls: { mode: 2 } } }),
        dr('ports', {
          host: HOST,
          trafficPolicy: {
            portLevelSettings: [
              { port: { number: 443 }, tls: { mode: 'SIMPLE' } },
              { port: { number: 8443 }, tls: { mode: 'MUTUAL', caCertificates: '/ca.pem' } },
              { port: { number: 9443 }, tls: { mode: 1 } },
              { port: { number: 9999 }, tls: { mode: 'ISTIO_MUTUAL' } },
            ],
          },
        }),
      ]),
    ).toEqual([
      'IST0128 shop/num MUTUAL',
      'IST0129 shop/ports port 443 SIMPLE',
      'IST0129 shop/ports port 9443 SIMPLE',
    ]);
  });

  it('takes credentialName only with a workloadSelector, and insecureSkipVerify not at all', () => {
    const tls = { mode: 'SIMPLE', credentialName: 'db-cred' };
    expect(
      found([
        dr('selected', { host: HOST, trafficPolicy: { tls }, workloadSelector: {} }),
        dr('null-selector', { host: HOST, trafficPolicy: { tls }, workloadSelector: null }),
        dr('empty-cred', {
          host: HOST,
          trafficPolicy: { tls: { mode: 'SIMPLE', credentialName: '' } },
          workloadSelector: { matchLabels: { app: 'x' } },
        }),
        dr('skip', {
          host: HOST,
          trafficPolicy: { tls: { mode: 'SIMPLE', insecureSkipVerify: true } },
        }),
        dr('empty-ca', {
          host: HOST,
          trafficPolicy: { tls: { mode: 'MUTUAL', caCertificates: '' } },
        }),
      ]),
    ).toEqual([
      'IST0128 shop/empty-ca MUTUAL',
      'IST0128 shop/empty-cred SIMPLE',
      'IST0128 shop/null-selector SIMPLE',
      'IST0128 shop/skip SIMPLE',
    ]);
  });

  it('names the host, mode and place in the evidence, and survives rules of odd shapes', () => {
    const [f] = all([dr('one', { host: HOST, trafficPolicy: { tls: { mode: 'SIMPLE' } } })]).filter(
      (x) => x.code === 'IST0128',
    );
    expect(f?.evidence).toEqual({ host: HOST, mode: 'SIMPLE', at: 'trafficPolicy.tls' });
    expect(f?.severity).toBe('warning');
    const odd = [
      dr('a', { host: HOST, trafficPolicy: 'x' }),
      dr('b', { host: HOST, trafficPolicy: { tls: 'SIMPLE', portLevelSettings: 'x' } }),
      dr('c', { host: HOST, trafficPolicy: { portLevelSettings: [null, 3, { tls: null }] } }),
      dr('d', {
        host: HOST,
        trafficPolicy: { portLevelSettings: [{ port: 'x', tls: { mode: 'SIMPLE' } }] },
      }),
      // a host istioctl cannot read: the rule is not judged
      dr('f', { host: 7, trafficPolicy: { tls: { mode: 'SIMPLE' } } }),
      { kind: 'DestinationRule', metadata: { name: 'e' } },
    ];
    expect(found(odd)).toEqual(['IST0129 shop/d port  SIMPLE']);
    expect(all(odd).filter((x) => x.code === 'MDX0003')).toEqual([]);
  });
});
