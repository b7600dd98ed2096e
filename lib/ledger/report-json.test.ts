import { describe, it, expect } from 'vitest';
import {
  assembleReport,
  attributionJsonItem,
  attributionView,
  attributionJsonFromParts,
  attributionJsonMiddle,
} from './report-json';
import {
  attributeRecord,
  lookupUpstream,
  type Attribution,
  type AttributionInput,
} from './attribution';
import { createRecordScan } from './scan';
import type { IpLookup, PodInterval } from './types';
import { history, uglyLog } from './test-scan-log';

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
  it('writes ugly values exactly as JSON.stringify does', () => {
    const ref = (x: Attribution) =>
      `    ${JSON.stringify(attributionView(x), null, 2).split('\n').join('\n    ')}`;
    const base = a(7, true, ['UC']);
    const ugly: Attribution[] = [
      { ...base, code: Number.NaN, afterTerminationMs: Number.POSITIVE_INFINITY },
      { ...base, time: null, code: null, upstream: null, flags: [] },
      { ...base, flags: ['U"C', 'x\\y', '\u2028', 'é\u0001'], upstream: '\ud800:80' },
      { ...base, pod: { namespace: 'ns\n', name: 'p\t', uid: 'u-1' }, state: 'live' },
      { ...base, line: -0, afterTerminationMs: -1.5e-7 },
      // not the usual pod shape: the general path
      { ...base, pod: { name: 'b', namespace: 'a', uid: null } },
      { ...base, pod: { namespace: 'a', name: 'b', uid: null, extra: 1 } as Attribution['pod'] },
    ];
    for (const x of ugly) expect(attributionJsonItem(x)).toBe(ref(x));
  });
});

describe('--json items from parts', () => {
  it('make what attributionJsonItem(attributeRecord(...)) makes, for every record of the ugly log', () => {
    const records: AttributionInput[] = [];
    const scan = createRecordScan({ all: true, onRecord: (r) => void records.push(r) });
    scan.push(uglyLog());
    scan.end();
    const pods = new WeakMap<PodInterval, string>();
    const write = (r: AttributionInput, found: IpLookup | null) =>
      attributionJsonFromParts(r.line, attributionJsonMiddle(r), found, pods);
    expect(records.length).toBeGreaterThan(30);
    for (const r of records) {
      const want = attributionJsonItem(attributeRecord(r, history));
      expect(write(r, lookupUpstream(r, history).found)).toBe(want);
      // the second time from the pod text cache
      expect(write(r, lookupUpstream(r, history).found)).toBe(want);
    }
  });
});
