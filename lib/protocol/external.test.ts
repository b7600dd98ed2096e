import { describe, expect, it } from 'vitest';
import { parseAccessLog } from '../accesslog/parser';
import type { AccessLogRecord } from '../accesslog/types';
import { CODES } from './codes';
import { externalCalls, externalHostFindings, serviceEntryYaml } from './external';

const LINES = [
  // HTTP to an unregistered host through PassthroughCluster (Istio >= 1.9 default TEXT format)
  '[2026-11-01T11:59:00.000Z] "GET /v1/rates HTTP/1.1" 200 - via_upstream - "-" 0 120 12 11 "-" "curl/8" "r1" "api.rates.example.com" "93.184.215.14:80" PassthroughCluster 10.0.0.5:40000 93.184.215.14:80 10.0.0.5:39999 - allow_any',
  '[2026-11-01T11:59:30.000Z] "GET /v1/rates HTTP/1.1" 200 - via_upstream - "-" 0 120 12 11 "-" "curl/8" "r2" "api.rates.example.com:80" "93.184.215.16:80" PassthroughCluster 10.0.0.5:40001 93.184.215.16:80 10.0.0.5:39998 - allow_any',
  // TLS with SNI, TCP proxy line
  '[2026-11-01T11:59:40.000Z] "- - -" 0 - - - "-" 500 4000 30 - "-" "-" "-" "-" "140.82.112.3:443" PassthroughCluster 10.0.0.5:40002 140.82.112.3:443 10.0.0.5:39997 github.com -',
  // TCP without SNI: only the IP is known
  '[2026-11-01T11:59:50.000Z] "- - -" 0 - - - "-" 10 20 5 - "-" "-" "-" "-" "52.1.2.3:5432" PassthroughCluster 10.0.0.5:40003 52.1.2.3:5432 10.0.0.5:39996 - -',
  // in-mesh call: not external
  '[2026-11-01T11:59:55.000Z] "GET / HTTP/1.1" 200 - via_upstream - "-" 0 5 1 1 "-" "curl/8" "r3" "web.ports:80" "10.0.1.2:8080" outbound|80||web.ports.svc.cluster.local 10.0.0.5:40004 10.96.0.10:80 10.0.0.5:39995 - default',
  // REGISTRY_ONLY: BlackHoleCluster
  '[2026-11-01T12:00:00.000Z] "GET /x HTTP/1.1" 502 - direct_response - "-" 0 0 0 - "-" "curl/8" "r4" "blocked.example.org" "-" BlackHoleCluster - 203.0.113.9:80 10.0.0.5:39994 - block_all',
];

function records(): AccessLogRecord[] {
  return parseAccessLog(LINES.join('\n')).flatMap((r) => (r.kind === 'record' ? [r.record] : []));
}

const client = { kind: 'Deployment', namespace: 'ports', name: 'fetcher' };

describe('externalCalls', () => {
  it('parses every test line', () => expect(records()).toHaveLength(LINES.length));
  it('groups by host and port, counts requests, keeps every address', () => {
    const calls = externalCalls([{ client, records: records() }]);
    expect(calls.map((c) => [c.host, c.port, c.protocol, c.cluster, c.count])).toEqual([
      ['api.rates.example.com', 80, 'HTTP', 'PassthroughCluster', 2],
      ['github.com', 443, 'TLS', 'PassthroughCluster', 1],
      ['52.1.2.3', 5432, 'TCP', 'PassthroughCluster', 1],
      ['blocked.example.org', 80, 'HTTP', 'BlackHoleCluster', 1],
    ]);
    expect(calls[0]?.addresses).toEqual(['93.184.215.14', '93.184.215.16']);
    expect(calls[0]?.firstSeen).toBe('2026-11-01T11:59:00.000Z');
    expect(calls[0]?.lastSeen).toBe('2026-11-01T11:59:30.000Z');
  });
});

describe('externalHostFindings', () => {
  it('warns for passthrough and errors for blackholed hosts, with a ServiceEntry', () => {
    const f = externalHostFindings([{ client, records: records() }]);
    expect(f.map((x) => x.code)).toEqual([
      CODES.externalPassthrough,
      CODES.externalPassthrough,
      CODES.externalPassthrough,
      CODES.externalBlackHole,
    ]);
    expect(f[0]?.fix?.yaml).toContain('  - api.rates.example.com\n');
    expect(f[0]?.fix?.yaml).toContain('    protocol: HTTP\n');
    expect(f[1]?.fix?.yaml).toContain('    protocol: TLS\n');
    expect(f[0]?.subject).toEqual(client);
  });
  it('writes an address-based entry when only the IP is known', () => {
    const [ipOnly] = externalCalls([{ client, records: records() }]).filter((c) => c.ipOnly);
    expect(ipOnly).toBeDefined();
    const y = serviceEntryYaml(ipOnly!);
    expect(y).toContain('  - 52.1.2.3/32');
    expect(y).toContain('resolution: NONE');
  });
});
