import { describe, expect, it } from 'vitest';
import { promGet, promVector, type PromClient } from './query';

/** A fetch that records what it was asked and answers `body`. */
function recorder(body: string, status = 200) {
  const asked: { url: string; headers: Headers }[] = [];
  const fetchImpl: typeof fetch = (input, init) => {
    asked.push({ url: String(input), headers: new Headers(init?.headers) });
    return Promise.resolve(new Response(body, { status }));
  };
  return { asked, client: { baseUrl: 'http://prom:9090/sub', timeoutMs: 1_000, fetchImpl } };
}

const vector =
  '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"namespace":"shop","pod":"cart-1"},"value":[1795722856.296,"1014"]}]}}';

describe('Prometheus requests', () => {
  it('ask for uncompressed answers below the base path, both readers', async () => {
    const r = recorder(vector);
    const c: PromClient = r.client;
    const seen: [(string | undefined)[], number, number][] = [];
    const visit = (l: readonly (string | undefined)[], at: number, v: number) =>
      seen.push([[...l], at, v]);
    expect(await promVector(c, 'up', ['pod', 'namespace', 'tag'], visit)).toBeNull();
    expect(seen).toEqual([[['cart-1', 'shop', undefined], 1795722856296, 1014]]);
    const answer = await promGet(c, 'query', { query: 'up' });
    expect(answer.error).toBeNull();
    expect(answer.series[0]?.samples).toEqual([[1795722856296, 1014]]);
    // the same answer as JSON with spaces (another writer): read the general way, alike
    const spaced = recorder(JSON.stringify(JSON.parse(vector), null, 1));
    const again: [(string | undefined)[], number, number][] = [];
    expect(
      await promVector(spaced.client, 'up', ['pod', 'namespace', 'tag'], (l, at, v) =>
        again.push([[...l], at, v]),
      ),
    ).toBeNull();
    expect(again).toEqual(seen);
    expect(r.asked.map((a) => a.url)).toEqual([
      'http://prom:9090/sub/api/v1/query?query=up',
      'http://prom:9090/sub/api/v1/query?query=up',
    ]);
    for (const a of r.asked) expect(a.headers.get('accept-encoding')).toBe('identity');
  });

  it('name an answer that is not JSON', async () => {
    const r = recorder('<html>bad gateway</html>', 502);
    expect(await promVector(r.client, 'up', [], () => undefined)).toBe(
      'Prometheus answered HTTP 502 with a non-JSON body: <html>bad gateway</html>',
    );
  });
});
