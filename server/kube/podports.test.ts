import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { asText, parseHttpBytes } from './podports';

const parseHttpResponse = (raw: Buffer) => asText(parseHttpBytes(raw));

/** A real admin answer, with text beyond ASCII so that chunk cuts fall inside characters. */
const BODY = `${readFixture('config_dump/istio-echo-a_sidecar_config_dump.json')}\n"prøve — ✓ 日本"\n`;

/** The body as Go's net/http sends it without a Content-Length: chunked, at the given cuts. */
function chunked(body: Buffer, sizes: number[], ext = ''): Buffer {
  const parts: Buffer[] = [
    Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    ),
  ];
  let pos = 0;
  let i = 0;
  while (pos < body.length) {
    const n = Math.min(sizes[i++ % sizes.length]!, body.length - pos);
    parts.push(
      Buffer.from(`${n.toString(16)}${ext}\r\n`),
      body.subarray(pos, pos + n),
      Buffer.from('\r\n'),
    );
    pos += n;
  }
  parts.push(Buffer.from('0\r\nX-Trailer: 1\r\n\r\n'));
  return Buffer.concat(parts);
}

describe('parseHttpResponse', () => {
  const body = Buffer.from(BODY, 'utf8');

  it('joins a chunked answer, whatever its cuts (inside characters too) and chunk extensions', () => {
    expect(body.length).toBeGreaterThan(10_000);
    for (const [sizes, ext] of [
      [[1], ''],
      [[7, 4093, 3], ''],
      [[65_536], ';name=value'],
      [[body.length], ''],
    ] as const) {
      const r = parseHttpResponse(chunked(body, [...sizes], ext));
      expect(r.status).toBe(200);
      expect(r.contentType).toBe('application/json');
      expect(r.body).toBe(BODY);
    }
  });

  it('reads a Content-Length answer to its length, and one read to close whole', () => {
    const head = `HTTP/1.1 503 Service Unavailable\r\nContent-Length: ${body.length}\r\n\r\n`;
    const r = parseHttpResponse(Buffer.concat([Buffer.from(head), body, Buffer.from('junk')]));
    expect(r).toEqual({ status: 503, contentType: '', body: BODY });
    const toClose = parseHttpResponse(
      Buffer.concat([Buffer.from('HTTP/1.0 200 OK\r\n\r\n'), body]),
    );
    expect(toClose.body).toBe(BODY);
  });

  it('keeps what arrived of a chunked answer cut short, and names what is not HTTP', () => {
    const whole = chunked(body, [1000]);
    const cut = parseHttpResponse(Buffer.from(whole.subarray(0, 5000)));
    expect(BODY.startsWith(cut.body.slice(0, 3000))).toBe(true);
    expect(cut.body.length).toBeLessThan(BODY.length);
    expect(() => parseHttpResponse(Buffer.from('HTTP/1.1 200 OK\r\nContent-Le'))).toThrow(
      /incomplete HTTP response/,
    );
    expect(() => parseHttpResponse(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(
      /not an HTTP response: SSH-2\.0/,
    );
  });
});
