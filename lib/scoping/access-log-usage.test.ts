import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { usageFromAccessLog } from './access-log-usage';

describe('usageFromAccessLog', () => {
  it('turns every record with an upstream cluster into a hit (real multi-version log)', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    // independent count: cluster tokens as they appear in the file
    const expected = new Map<string, number>();
    for (const l of lines) {
      const m = /\s((?:in|out)bound\|\d+\|[^|\s]*\|[^\s"]*)/.exec(l);
      if (m?.[1]) expected.set(m[1], (expected.get(m[1]) ?? 0) + 1);
    }
    const u = usageFromAccessLog(text);
    const got = new Map(u.hits.map((h) => [h.cluster ?? '', h.count]));
    expect(got).toEqual(expected);
    const withCluster = [...expected.values()].reduce((a, b) => a + b, 0);
    expect(u.records - u.withoutCluster).toBe(withCluster);
    expect(u.records + u.skipped + u.errors).toBe(lines.length);
    expect(u.firstMs).not.toBeNull();
    expect(u.lastMs! >= u.firstMs!).toBe(true);
  });

  it('counts proxy log lines and unreadable lines instead of dropping them', () => {
    const text = [
      '2024-05-01T10:00:00.000000Z\tinfo\tEnvoy proxy is ready',
      '[2024-05-01T10:00:01.000Z] "GET /a HTTP/1.1" 200 - via_upstream - "-" 0 5 3 2 "-" "curl" "id1" "a:80" "10.0.0.9:80" outbound|80||a.ns.svc.cluster.local 10.0.0.5:4000 10.96.0.10:80 10.0.0.5:3999 - default',
      '[2024-05-01T10:00:02.000Z] "GET /a HTTP/1.1" 200 - via_upstream - "-" 0 5 3 2 "-" "curl" "id2" "a:80" "10.0.0.9:80" outbound|80||a.ns.svc.cluster.local 10.0.0.5:4001 10.96.0.10:80 10.0.0.5:3998 - default',
      '[2024-05-01T10:00:03.000Z] "GET /b HTTP/1.1" 200 - 0 5 3 2 "-" "curl" "id3" "b:80" "10.0.0.8:80"',
      '{"start_time":"2024-05-01T10:00:04.000Z","upstream_cluster":"outbound|9090||c.ns.svc.cluster.local","response_code":200,"method":"POST","path":"/x","protocol":"HTTP/2"}',
      '\u0000\u0001\u0002binary',
    ].join('\n');
    const u = usageFromAccessLog(text);
    expect(u.hits).toEqual([
      { cluster: 'outbound|80||a.ns.svc.cluster.local', count: 2 },
      { cluster: 'outbound|9090||c.ns.svc.cluster.local', count: 1 },
    ]);
    expect(u.skipped).toBe(1);
    expect(u.records + u.errors).toBe(5);
    expect(u.records - u.withoutCluster).toBe(3);
    expect(u.lastMs).toBe(Date.parse('2024-05-01T10:00:04.000Z'));
  });

  it('an empty log has no records', () => {
    expect(usageFromAccessLog('')).toMatchObject({ hits: [], records: 0, firstMs: null });
  });
});
