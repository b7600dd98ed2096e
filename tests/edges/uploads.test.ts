import { describe, expect, it } from 'vitest';
import { POST as uploadPost } from '../../app/api/incidents/upload/route';
import { expectError, url, useEdgeCluster, type ErrorBody } from './support';

/**
 * Uploads at the edge: bad parameters are 400s naming them, an empty or unreadable body is a 4xx
 * with the reason, a declared length over the limit is refused before the body is read.
 */
useEdgeCluster('uploads');

describe('upload parameters and bodies', () => {
  const post = (query: string, body: BodyInit, headers: Record<string, string> = {}) =>
    uploadPost(
      new Request(url(`/api/incidents/upload${query}`), {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain', ...headers },
        body,
      }),
    );
  const LINE =
    '[2026-11-01T11:59:00.000Z] "GET /cart HTTP/1.1" 503 UH no_healthy_upstream - "-" 0 19 0 - "-" "curl" "x" "cart.shop:80" "-" outbound|80||cart.shop.svc.cluster.local - 10.96.0.10:80 10.244.1.17:41234 - default\n';

  it('format=bogus and ip=garbage are 400s naming them', async () => {
    await expectError(await post('?format=bogus', LINE), 400, 'INVALID_PARAMETER', 'format');
    await expectError(await post('?ip=garbage', LINE), 400, 'INVALID_PARAMETER', 'ip');
  });

  it('empty, blank, binary, NUL-filled and one-long-line uploads are 4xx with the reason', async () => {
    const empty = await post('', '');
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as ErrorBody).error.code).toBe('EMPTY_UPLOAD');
    for (const [body, why] of [
      [new Uint8Array([0xff, 0xfe, 0x00, 0x81]), /not UTF-8/],
      ['\0'.repeat(1024), /NUL/],
      ['x'.repeat(2 * 1024 * 1024), /no line/],
    ] as const) {
      const res = await post('', body);
      expect(res.status).toBe(422);
      const e = (await res.json()) as ErrorBody;
      expect(e.error.code).toBe('UNREADABLE_UPLOAD');
      expect(e.error.message).toMatch(why);
    }
    const blank = await post('', '   \n\n');
    expect(blank.status).toBe(400);
  });

  it('a declared length over the limit is refused before the body is read', async () => {
    const res = await post('', 'abc', { 'Content-Length': String(200 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it('a readable log with good parameters is analysed', async () => {
    expect((await post('?ip=10.244.1.17', LINE)).status).toBe(200);
  });
});
