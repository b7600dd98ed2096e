import { describe, it, expect } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { createAttributionScan, type AttributionScanOptions } from './scan';
import { IpLedger } from './ledger';
import { ev, T0, MIN } from './test-pods';
import { parseAccessLog } from '../accesslog/parser';
import { isFailure } from '../accesslog/failure';

const IP_A = '10.8.0.5';
const IP_B = '10.8.0.6';
const history = new IpLedger().addAll([
  ev('ADDED', { name: 'pay-a', ip: IP_A, start: T0 }, T0),
  ev('MODIFIED', { name: 'pay-a', ip: IP_A, start: T0, deletionAt: T0 + 10 * MIN }, T0 + 10 * MIN),
  ev('DELETED', { name: 'pay-a', ip: IP_A, start: T0, deletionAt: T0 + 10 * MIN }, T0 + 11 * MIN),
  ev('ADDED', { name: 'pay-b', ip: IP_B, start: T0 }, T0),
]);

const at = (m: number) => new Date(T0 + m * MIN).toISOString();
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
function uglyLog(): Buffer {
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

function scanAll(bytes: Uint8Array, options: AttributionScanOptions, chunk: number) {
  const scan = createAttributionScan(history, options);
  for (let i = 0; i < bytes.length; i += chunk) scan.push(bytes.subarray(i, i + chunk));
  return scan.end();
}

function comparable(r: ReturnType<typeof scanAll>) {
  const { prescan: _p, skippedByFilter: _s, ...rest } = r;
  return rest;
}

describe('attribution scan: the pre-scan fast path agrees with the full parser', () => {
  const log = uglyLog();
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(log);
  const lineCount = text.split('\n').length; // no trailing '\n': every piece is a line

  for (const chunk of [log.length, 4096, 7, 1]) {
    it(`same attributions, errors and line numbers (chunks of ${chunk} bytes)`, () => {
      const fast = scanAll(log, {}, chunk);
      const full = scanAll(log, { prescan: false }, chunk);
      expect(fast.prescan).toBe(true);
      expect(full.prescan).toBe(false);
      expect(fast.skippedByFilter).toBeGreaterThan(20);
      expect(full.skippedByFilter).toBe(0);
      expect(comparable(fast)).toEqual(comparable(full));
      expect(fast.lines).toBe(lineCount);
    });
  }

  it('matches the line-by-line parser on the decoded text, line numbers included', () => {
    const fast = scanAll(log, {}, 1000);
    const reference = parseAccessLog(text);
    const records = reference.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
    const errors = reference.flatMap((r) => (r.kind === 'error' ? [r.error] : []));
    expect(fast.requests).toBe(records.length);
    expect(fast.errors).toBe(errors.length);
    expect(fast.unreadable).toEqual(errors.map((e) => ({ line: e.line, reason: e.reason })));
    const failing = records.filter(isFailure);
    expect(fast.attributions.map((a) => [a.line, a.code, a.flags])).toEqual(
      failing.map((r) => [r.line, r.responseCode, r.responseFlags]),
    );
    // each attribution's line number points at its line in the file
    const lines = text.split('\n');
    for (const a of fast.attributions) expect(lines[a.line - 1]).toContain(String(a.code));
  });

  it('finds the failures it must, with the states of the history', () => {
    const fast = scanAll(log, {}, 4096);
    const lines = text.split('\n');
    const byText = (needle: string) =>
      fast.attributions.find((a) => (lines[a.line - 1] ?? '').includes(needle));
    expect(byText(`${at(2)}] "POST /pay HTTP/1.1" 503 UC`)?.state).toBe('live');
    expect(byText(`${at(11)}] "POST /pay HTTP/1.1" 503 UC`)?.state).toBe('terminated');
    expect(byText(`${at(30)}] "POST /pay HTTP/1.1" 503 UC`)?.state).toBe('unknown');
    expect(byText('"POST /pay HTTP/1.1" 0 DC')?.flags).toEqual(['DC']);
    expect(byText('2024-06-01T10:06:31.000000000Z')?.flags).toEqual(['UF']);
    expect(fast.attributions.some((a) => a.code === 200 && a.flags.length === 0)).toBe(false);
    expect(fast.skipped['proxy-log']).toBeGreaterThan(2);
    expect(fast.errorsByReason.binary).toBeGreaterThanOrEqual(1);
  });

  it('--all and custom formats that do not start like Istio turn the pre-scan off', () => {
    expect(scanAll(log, { all: true }, 4096).prescan).toBe(false);
    expect(scanAll(log, { format: '%START_TIME% %RESPONSE_CODE%' }, 4096).prescan).toBe(false);
    const custom =
      '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% %REQ(X-FORWARDED-FOR)% "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"';
    const fast = scanAll(log, { format: custom }, 4096);
    const full = scanAll(log, { format: custom, prescan: false }, 4096);
    expect(fast.prescan).toBe(true);
    expect(comparable(fast)).toEqual(comparable(full));
    const all = scanAll(log, { all: true }, 4096);
    expect(all.attributed).toBe(all.requests);
  });

  it('onAttribution receives every attribution in line order and nothing is collected', () => {
    const seen: number[] = [];
    const r = scanAll(log, { onAttribution: (a) => seen.push(a.line) }, 4096);
    expect(r.attributions).toEqual([]);
    expect(seen).toEqual(scanAll(log, {}, 4096).attributions.map((a) => a.line));
    expect(r.attributed).toBe(seen.length);
  });
});
