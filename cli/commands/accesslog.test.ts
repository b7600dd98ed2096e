import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { run } from './accesslog';
import { fakeIO, tempDir } from '../testing';
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

  it('prints a text summary with skip reasons for a proxy log', async () => {
    const t = io();
    expect(
      await run(
        [fixturePath('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log')],
        t,
      ),
    ).toBe(0);
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
});
