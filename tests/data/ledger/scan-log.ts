/** A log with every kind of line a scan meets, and the pod history it refers to (test data). */
import { readFixture } from '../../../test-support/fixtures';
import { IpLedger } from '../../../lib/ledger/ledger';
import { ev, T0, MIN } from './pods';

const IP_A = '10.8.0.5';
const IP_B = '10.8.0.6';
export const history = new IpLedger().addAll([
  ev('ADDED', { name: 'pay-a', ip: IP_A, start: T0 }, T0),
  ev('MODIFIED', { name: 'pay-a', ip: IP_A, start: T0, deletionAt: T0 + 10 * MIN }, T0 + 10 * MIN),
  ev('DELETED', { name: 'pay-a', ip: IP_A, start: T0, deletionAt: T0 + 10 * MIN }, T0 + 11 * MIN),
  ev('ADDED', { name: 'pay-b', ip: IP_B, start: T0 }, T0),
]);

export const at = (m: number) => new Date(T0 + m * MIN).toISOString();
const V19 = (t: string, code: string, flags: string, ip = IP_A, path = '/pay') =>
  `[${t}] "POST ${path} HTTP/1.1" ${code} ${flags} via_upstream - "-" 0 95 3 - "-" "curl" "rid" "payments:8080" "${ip}:8080" outbound|8080||payments.shop.svc.cluster.local 10.8.0.99:40000 10.96.0.10:8080 ${IP_B}:39999 - default`;
const JSON_LINE = (code: number, flags: string) =>
  JSON.stringify({
    start_time: at(12),
    method: 'GET',
    response_code: code,
    response_flags: flags,
    upstream_host: `${IP_A}:8080`,
  });

/** A mixed log: every kind of line the pre-scan must pass, send on, or leave to the parser. */
export function uglyLog(): Buffer {
  const lines: (string | Buffer)[] = [
    V19(at(1), '200', '-'),
    V19(at(2), '503', 'UC'),
    `${V19(at(3), '200', '-')}\r`, // CRLF
    `${V19(at(4), '504', 'UT')}\r`,
    V19(at(5), '-', '-'), // no code: a record, not failing
    V19(at(5), '0', 'DC'), // code 0 with a flag: failing
    V19(at(5), '200', 'UC,URX'),
    V19(at(5), '404', 'NR', '-'),
    V19(at(6), '500', '-').replace('500 -', '500  '), // empty flags: two spaces
    V19(at(6), '200', '-').replace('200 -', '200  '),
    `2024-06-01T10:06:30.123456789Z ${V19(at(6), '200', '-')}`, // kubectl --timestamps
    `2024-06-01T10:06:31.000000000Z ${V19(at(6), '503', 'UF')}`,
    `2024-06-01T10:06:32.000000000Z garbage after a timestamp`,
    '2024-06-01T10:07:00.000000Z\tinfo\tads\tADS: new connection', // proxy log
    '    continuation of the proxy log',
    V19(at(7), '200', '-'), // ends the continuation: a record
    '    indented line that is not a continuation any more',
    '[2024-06-01 10:07:01.000][15][warning][config] gRPC stream closed',
    JSON_LINE(200, '-'),
    JSON_LINE(503, 'UC'),
    '{"start_time": "2024-06-01T10:12:00Z", "response_code": 503, "upstream_ho', // truncated JSON
    '{"level":"info","msg":"proxy json log"}',
    `[${at(8)}] "GET /x HTTP/1.1" 200 - 0 95 3 - "-" "curl" "rid" "payments:8080" "${IP_A}:8080"`, // pre-1.1
    `[${at(8)}] "GET /x HTTP/1.1" 503 UC 0 95 44456 - - "rid" "yourdomain.com" "${IP_A}:80"`, // seed custom
    `[${at(9)}] "GET /truncated HTTP/1.1" 200 - via_upstream - "-" 0 95`,
    `[${at(9)}] "GET /cut`, // truncated early
    `[${at(9)}]x] "GET / HTTP/1.1" 200 - via_upstream`, // ']' inside the time
    `[2024-06-01T10:09:00.000Z]["GET / HTTP/1.1" 200 -`,
    V19(at(9), '200', '-', IP_A, '/caf\u00e9/\u65e5\u672c'), // non-ASCII path
    Buffer.concat([
      Buffer.from(`[${at(9)}] "GET /bad`),
      Buffer.from([0xff, 0xfe, 0x80]),
      Buffer.from(V19(at(9), '200', '-').slice(`[${at(9)}] "GET /bad`.length + 5)),
    ]),
    Buffer.from([0x00, 0x01, 0x02, 0xff, 0x41, 0x42]), // binary garbage
    '',
    '   ',
    `\ufeff${V19(at(10), '200', '-')}`, // BOM
    V19(at(10), '200', '-').replace('HTTP/1.1', 'HTTP/1.1\t'),
    V19(at(10), '200', '-').replace('"POST /pay', '"POST\t/pay'),
    V19(at(10), '503', 'UC').replace('UC', 'uc'),
    V19(at(10), '200', '-').replace('"POST', '"'),
    V19(at(10), '2000', '-'),
    V19(at(10), '1234567890123456', '-'),
    V19(at(11), '503', 'UC', IP_A),
    V19(at(30), '503', 'UC', IP_A), // far after pod-a was gone: unknown
  ];
  const parts = lines.map((l) => (typeof l === 'string' ? Buffer.from(l) : l));
  // a real Istio log and a real proxy log in the middle
  parts.splice(
    20,
    0,
    Buffer.from(readFixture('access_logs', 'istio-io-docs_text_multi-version.log').trimEnd()),
  );
  parts.push(
    Buffer.from(
      readFixture('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log').trimEnd(),
    ),
  );
  parts.push(Buffer.from(V19(at(12), '503', 'UC'))); // last line without '\n'
  return Buffer.concat(
    parts.flatMap((p, i) => (i === parts.length - 1 ? [p] : [p, Buffer.from('\n')])),
  );
}
