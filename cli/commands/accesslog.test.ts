import { execFile, execFileSync } from 'node:child_process';
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './accesslog';
import { fakeIO, tempDir } from '../../test-support/cli-io';
import { fixturePath, readFixture } from '../../test-support/fixtures';

const dir = tempDir('accesslog');
const io = () => fakeIO(dir);

const DOCS = fixturePath('access_logs', 'istio-io-docs_text_multi-version.log');

describe('meshdx accesslog', () => {
  it('prints a JSON summary of the docs fixture', async () => {
    const t = io();
    expect(await run([DOCS, '--json'], t)).toBe(0);
    const s = JSON.parse(t.out);
    const lines = readFixture('access_logs', 'istio-io-docs_text_multi-version.log')
      .split('\n')
      .filter((l) => l !== '');
    expect(s.lines).toBe(lines.length);
    expect(s.parsed).toBe(41);
    expect(s.byCode['418']).toBe(lines.filter((l) => l.includes('" 418 ')).length);
    expect(s.byFlag).toEqual({ '-': 41 });
    expect(Object.values(s.formats as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(41);
    expect(s.errors).toEqual({});
  });

  it('prints a text summary with skip reasons for a proxy log; no record in it is exit 2', async () => {
    const t = io();
    const file = fixturePath('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log');
    expect(await run([file], t)).toBe(2);
    expect(t.err).toContain(`${file}: no access-log record in`);
    const text = readFixture('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log');
    const proxyLines = text.split('\n').filter((l) => /^\d{4}-\d\d-\d\dT[^\t]+\t/.test(l)).length;
    expect(t.out).toContain('parsed 0');
    expect(t.out).toContain(`skipped proxy-log: ${proxyLines} (first lines 1, 2, 3, 4, 5)`);
  });

  it('reads a custom format, CRLF endings and invalid UTF-8, counting what it cannot read', async () => {
    const file = path.join(dir, 'custom.log');
    const good =
      '[2023-11-12T22:28:36.878Z] "POST /service HTTP/1.1" 503 UC 0 95 44456 - - "20f7..." "yourdomain.com" "10.10.10.10:80"';
    fs.writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${good}\r\n${good}\r\n`),
        Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]),
        Buffer.from('\n'),
      ]),
    );
    const format =
      '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% %REQ(X-FORWARDED-FOR)% "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"';
    const t = io();
    expect(await run(['custom.log', '--json', `--format=${format}`], t)).toBe(0);
    const s = JSON.parse(t.out);
    expect(s).toMatchObject({
      lines: 4,
      parsed: 2,
      partial: 0,
      byCode: { '503': 2 },
      byFlag: { UC: 2 },
      formats: { custom: 2 },
    });
    expect(s.errors).toEqual({ binary: { count: 1, firstLines: [3] } });
    expect(s.skipped).toEqual({ empty: { count: 1, firstLines: [4] } });
  });

  it('names a missing file and exits 2', async () => {
    const t = io();
    expect(await run(['nope.log'], t)).toBe(2);
    expect(t.err).toContain(path.join(dir, 'nope.log'));
    expect(t.out).toBe('');
  });

  it('rejects bad usage with exit 2', async () => {
    expect(await run([], io())).toBe(2);
    expect(await run([DOCS, '--bogus'], io())).toBe(2);
    expect(await run([DOCS, '--format'], io())).toBe(2);
    expect(await run([dir], io())).toBe(2);
  });

  it('reads prefixed, untimed and ztunnel lines, counts stats lines, lists the pods', async () => {
    const v19 =
      '"GET /x HTTP/1.1" 503 UC upstream_reset_before_response_started{connection_termination} - "-" 0 95 44 - "-" "curl" "id" "h" "10.244.1.7:8080" outbound|80||h.default.svc.cluster.local 10.0.0.1:1 10.0.0.2:80 10.0.0.3:2 - default';
    const lines = [
      `[pod/web-1/istio-proxy] [2024-03-01T10:00:00.000Z] ${v19}`,
      `web-2 istio-proxy ${v19}`,
      'cluster.outbound|80||h.default.svc.cluster.local.upstream_rq_pending_overflow: 12',
      '2024-07-23T14:22:10.000000Z\terror\taccess\tconnection complete\tsrc.addr=10.1.0.8:4 dst.addr=10.1.0.44:8080 direction="outbound" duration="3ms" error="connection refused"',
      '2024-07-23T14:22:10.000000Z\terror\taccess\tconnection complete\tsrc.addr=10.1.0.8:4 dst.addr="10.1.0.4',
    ];
    fs.writeFileSync(path.join(dir, 'mixed.log'), `${lines.join('\n')}\n`);
    const t = io();
    expect(await run(['mixed.log', '--json'], t)).toBe(0);
    const s = JSON.parse(t.out) as Record<string, unknown>;
    expect(s).toMatchObject({
      lines: 5,
      parsed: 3,
      untimed: 1,
      sources: { 'web-1': 1, 'web-2': 1 },
      skipped: { stats: { count: 1, firstLines: [3] } },
      errors: { truncated: { count: 1, firstLines: [5] } },
      formats: { 'istio-1.9+': 1, 'istio-1.9+:no-start-time': 1, ztunnel: 1 },
      byFlag: { UC: 2, UF: 1 },
    });
  });

  it('exit 2 with the file and why: empty, empty pipe, binary, a config dump given as a log', async () => {
    const cases: [string, string | Buffer, RegExp][] = [
      ['empty.log', '', /empty\.log: is empty/],
      [
        'bin.log',
        Buffer.from([0, 1, 2, 0xff, 0xfe, 10, 0, 0, 10]),
        /no access-log record in 2 lines: 2 unreadable \(binary\)/,
      ],
      [
        'dump.log',
        JSON.stringify({ configs: [{ '@type': 'x' }] }, null, 2),
        /no access-log record in \d+ lines/,
      ],
    ];
    for (const [name, content, why] of cases) {
      fs.writeFileSync(path.join(dir, name), content);
      const t = io();
      expect(await run([name], t)).toBe(2);
      expect(t.err).toMatch(why);
    }
    const fifo = path.join(dir, 'empty.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = execFile('sh', ['-c', `exec 3>${fifo}; exec 3>&-`]);
    const t = io();
    expect(await run([fifo], t)).toBe(2);
    expect(t.err).toContain('is empty');
    writer.kill();
  });

  it('a line over the length limit is unreadable (too-long), the others are read', async () => {
    const good =
      '[2024-03-01T10:00:00.000Z] "GET / HTTP/1.1" 200 - 0 0 1 1 "-" "curl" "id" "h" "10.0.0.1:80"';
    fs.writeFileSync(path.join(dir, 'long.log'), `${good}\n${'x'.repeat(5000)}\n${good}\n`);
    const t = fakeIO(dir);
    t.limits = { maxLineBytes: 1000 };
    expect(await run(['long.log', '--json'], t)).toBe(0);
    const s = JSON.parse(t.out) as Record<string, unknown>;
    expect(s).toMatchObject({
      lines: 3,
      parsed: 2,
      errors: { 'too-long': { count: 1, firstLines: [2] } },
    });
  });
});
