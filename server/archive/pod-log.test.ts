import { describe, expect, it } from 'vitest';
import { readFixture } from '../../test-support/fixtures';
import { logSlice } from './pod-log';

// an istio-proxy log as istioctl keeps it (no kubelet timestamps): the agent's lines lead with
// their time, Envoy's access records carry their start, in the text or the JSON format
const LOG = [
  '2026-11-01T11:00:03.605000Z\tinfo\tVersion 1.24.2',
  '[2026-11-01T11:59:58.120Z] "GET /api/v1/stock HTTP/1.1" 503 UH no_healthy_upstream - "-" 0 19 0 - "-" "curl" "x" "inventory:8080" "-" outbound|8080||inventory.shop.svc.cluster.local - 10.0.0.1:8080 10.0.0.2:41234 - default',
  '{"start_time":"2026-11-01T11:59:59.000Z","method":"GET","response_code":200}',
  '  a continuation of the record before',
].join('\n');

const slice = (q: Record<string, string>) => logSlice(LOG, new URLSearchParams(q)).split('\n');

describe("a pod's log from the archive, as pods/log slices it", () => {
  it('keeps the lines at or after sinceTime by the time each prints, a continuation with its entry', () => {
    expect(slice({ sinceTime: '2026-11-01T11:59:58.500Z' })).toEqual([
      '{"start_time":"2026-11-01T11:59:59.000Z","method":"GET","response_code":200}',
      '  a continuation of the record before',
      '',
    ]);
    expect(slice({ sinceTime: '2026-11-01T11:30:00Z' })).toHaveLength(4);
    expect(slice({ sinceTime: '2026-11-01T10:00:00Z' })).toHaveLength(5);
  });

  it('takes tailLines after sinceTime, and a bad sinceTime as none', () => {
    expect(slice({ sinceTime: '2026-11-01T11:30:00Z', tailLines: '1' })).toEqual([
      '  a continuation of the record before',
      '',
    ]);
    expect(slice({ sinceTime: 'yesterday' })).toHaveLength(5);
  });

  it("cuts a real agent log by its times, the mesh config's lines with the entry that printed them", () => {
    const real = readFixture('proxy_logs', 'istio-ingressgateway-1.6.3_istio-proxy_container.log');
    const all = logSlice(real, new URLSearchParams()).split('\n');
    const later = logSlice(real, new URLSearchParams({ sinceTime: '2020-06-30T00:00:00Z' }));
    const kept = later.split('\n').filter((l) => l !== '');
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(all.length - 1);
    // the first kept line is a timed one of the window, no orphaned continuation before it
    expect(Date.parse(/^(\S+Z)/.exec(kept[0] ?? '')?.[1] ?? '')).toBeGreaterThanOrEqual(
      Date.parse('2020-06-30T00:00:00Z'),
    );
    expect(later).not.toContain('accessLogFile: /dev/stdout');
  });
});
