import { describe, it, expect } from 'vitest';
import { assembleReport, attributionJsonItem, attributionView } from './report-json';
import type { Attribution } from './attribution';

const a = (line: number, pod: boolean, flags: string[]): Attribution => ({
  line,
  time: '2024-06-01T10:10:10.000Z',
  code: 503,
  flags,
  upstream: '10.8.0.5:8080',
  upstreamIp: '10.8.0.5',
  pod: pod ? { namespace: 'shop', name: 'pay "a"', uid: null } : null,
  owner: null,
  node: null,
  state: pod ? 'terminating' : 'unknown',
  afterTerminationMs: pod ? 10_000 : null,
  reason: 'r',
  client: null,
  service: null,
});

describe('report-json', () => {
  const head = { requests: 3, errors: 1, unreadable: [{ line: 3, reason: 'binary' }] };
  it('prints byte for byte what JSON.stringify(report, null, 2) prints', () => {
    const list = [a(2, true, ['UC']), a(4, false, []), a(9, true, ['UF', 'URX'])];
    const expected = `${JSON.stringify({ ...head, attributions: list.map(attributionView) }, null, 2)}\n`;
    expect(assembleReport(head, list.map(attributionJsonItem))).toBe(expected);
  });
  it('empty attributions and an empty head', () => {
    expect(assembleReport(head, [])).toBe(
      `${JSON.stringify({ ...head, attributions: [] }, null, 2)}\n`,
    );
    expect(assembleReport({}, [attributionJsonItem(a(1, false, []))])).toBe(
      `${JSON.stringify({ attributions: [attributionView(a(1, false, []))] }, null, 2)}\n`,
    );
  });
});
