import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import type { Service } from '../kube/types';
import { CODES } from './codes';
import { servicePortFindings } from './ports';
import { protocolOfName, resolvePortProtocol } from './resolve';
import { pod, svc, yamlObjects } from '../../tests/data/protocol/objects';
import { objectText } from '../refs/object-ref';

interface Expected {
  name: string;
  inputFiles: string[];
  analyzer: string;
  expected: { code: string; resource: string }[];
}
const EXPECTED = JSON.parse(
  readFixture('istio_config', 'analyzer_expected_messages.json'),
) as Expected[];

function services(file: string): Service[] {
  return yamlObjects(readFixture('istio_config', file)).filter(
    (o) => o.kind === 'Service',
  ) as unknown as Service[];
}

describe('resolvePortProtocol', () => {
  it('follows appProtocol, then the name prefix, then well-known ports, else sniffing', () => {
    expect(resolvePortProtocol({ port: 80, name: 'http-web' })).toEqual({
      protocol: 'HTTP',
      source: 'name',
    });
    expect(resolvePortProtocol({ port: 80, name: 'web', appProtocol: 'grpc' }).protocol).toBe(
      'GRPC',
    );
    // appProtocol wins even over a good name, and an unknown appProtocol means sniffing
    expect(resolvePortProtocol({ port: 80, name: 'http', appProtocol: 'custom' }).source).toBe(
      'sniffed',
    );
    expect(resolvePortProtocol({ port: 3306, name: 'db' })).toEqual({
      protocol: 'TCP',
      source: 'well-known-port',
    });
    expect(resolvePortProtocol({ port: 53, name: 'dns', protocol: 'UDP' }).source).toBe('udp');
    expect(resolvePortProtocol({ port: 8080, name: 'foo-http' }).source).toBe('sniffed');
    expect(resolvePortProtocol({ port: 8080, name: '8080' }).source).toBe('sniffed');
    expect(resolvePortProtocol({ port: 8080 }).source).toBe('sniffed');
  });
  it('reads grpc-web whole and is case-insensitive', () => {
    expect(protocolOfName('grpc-web-ui')).toBe('GRPC-Web');
    expect(protocolOfName('GRPC-api')).toBe('GRPC');
    expect(protocolOfName('HTTP2')).toBe('HTTP2');
    expect(protocolOfName('kubernetes.io/h2c')).toBe('HTTP2');
    expect(protocolOfName('grpcx')).toBeNull();
  });
});

describe('port checks on the istioctl analyzer fixtures (service.PortNameAnalyzer)', () => {
  const cases = EXPECTED.filter((e) => e.analyzer === 'service.PortNameAnalyzer');
  it('covers every PortNameAnalyzer case of the fixture set', () => {
    expect(cases.length).toBe(4);
  });
  for (const c of cases) {
    it(`${c.name}: same IST codes and resources as istioctl`, () => {
      const svcs = c.inputFiles.flatMap(services);
      expect(svcs.length).toBeGreaterThan(0);
      const got = svcs
        .flatMap((s) => servicePortFindings(s, []))
        .filter((f) => f.code.startsWith('IST'))
        .map((f) => ({
          code: f.code,
          resource: objectText('Service', {
            namespace: f.subject.namespace ?? '',
            name: f.subject.name,
          }),
        }));
      expect(got).toEqual(c.expected.map((e) => ({ code: e.code, resource: e.resource })));
    });
  }
});

describe('servicePortFindings (hand-made)', () => {
  it('flags a sniffed port with what to set, suggested from the container port', () => {
    const s = svc('web', [{ name: 'web', port: 80, targetPort: 8080 }]);
    const p = pod('web-1', 'web', [
      { name: 'web', ports: [{ name: 'http', containerPort: 8080 }] },
    ]);
    const [f, ...rest] = servicePortFindings(s, [p]);
    expect(rest).toEqual([]);
    expect(f?.code).toBe('IST0118');
    expect(f?.evidence).toMatchObject({ portName: 'web', port: 80, suggested: 'http' });
    expect(f?.fix?.yaml).toContain('appProtocol: http');
  });
  it('reports a server-first protocol behind a sniffed port as an error', () => {
    const s = svc('legacy-db', [{ name: 'db', port: 13306, targetPort: 3306 }]);
    const p = pod('legacy-db-1', 'legacy-db', [{ name: 'mysql', image: 'mysql:8' }]);
    const codes = servicePortFindings(s, [p]).map((f) => f.code);
    expect(codes).toEqual([CODES.portNameConvention, CODES.serverFirstSniffed]);
    const err = servicePortFindings(s, [p])[1];
    expect(err?.severity).toBe('error');
    expect(err?.evidence).toMatchObject({ protocol: 'MySQL', detectedBy: 'targetPort' });
    expect(err?.fix?.yaml).toContain('appProtocol: tcp');
  });
  it('finds a server-first image behind a named targetPort', () => {
    const s = svc('mail', [{ name: 'relay', port: 2525, targetPort: 'smtp-in' }]);
    const p = pod('mail-1', 'mail', [
      {
        name: 'mta',
        image: 'docker.io/boky/postfix:v4',
        ports: [{ name: 'smtp-in', containerPort: 2525 }],
      },
    ]);
    const err = servicePortFindings(s, [p]).find((f) => f.code === CODES.serverFirstSniffed);
    expect(err?.evidence).toMatchObject({ protocol: 'SMTP', detectedBy: 'containerPortName' });
  });
  it('does not call PostgreSQL server-first (the client speaks first)', () => {
    const s = svc('pg', [{ name: 'db', port: 5432 }]);
    const p = pod('pg-1', 'pg', [{ name: 'postgres', image: 'postgres:16' }]);
    expect(servicePortFindings(s, [p]).map((f) => f.code)).toEqual([CODES.portNameConvention]);
  });
  it('says TCP-by-number for an undeclared 3306, and off-by-default for mysql/redis names', () => {
    expect(
      servicePortFindings(svc('db', [{ name: 'db', port: 3306 }]), []).map((f) => f.code),
    ).toEqual([CODES.tcpByWellKnownPort]);
    const r = servicePortFindings(svc('cache', [{ name: 'redis-main', port: 6379 }]), []);
    expect(r.map((f) => f.code)).toEqual([CODES.filterOffByDefault]);
    expect(r[0]?.evidence.resolved).toBe('Redis');
    const m = servicePortFindings(
      svc('db2', [{ name: 'x', port: 3307, appProtocol: 'mysql' }]),
      [],
    );
    expect(m[0]?.evidence.declaredBy).toBe('appProtocol');
  });
  it('is silent for declared ports, UDP and system namespaces', () => {
    const ok = svc('ok', [
      { name: 'http-web', port: 80 },
      { name: 'api', port: 9090, appProtocol: 'grpc' },
      { name: 'dns', port: 5353, protocol: 'UDP' },
    ]);
    expect(servicePortFindings(ok, [])).toEqual([]);
    expect(servicePortFindings(svc('x', [{ port: 1 }], { ns: 'kube-system' }), [])).toEqual([]);
  });
});
