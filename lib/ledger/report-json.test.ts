import { describe, it, expect } from 'vitest';
import {
  assembleReport,
  attributionJsonItem,
  attributionView,
  attributionJsonMiddle,
  JsonItemFinisher,
} from './report-json';
import {
  attributeRecord,
  upstreamIpOf,
  type Attribution,
  type AttributionInput,
} from './attribution';
import type { IpHistory } from './ip-history';
import { lookupInSorted } from './lookup';
import { intervals, tableOf } from '../../tests/data/ledger/intervals';
import { MIN, T0 } from '../../tests/data/ledger/pods';
import { createRecordScan } from './scan';
import type { PodInterval } from './types';
import { history, uglyLog } from '../../tests/data/ledger/scan-log';

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
  deletionStartedAt: null,
  goneAt: null,
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
  const records: AttributionInput[] = [];
  const scan = createRecordScan({ all: true, onRecord: (r) => void records.push(r) });
  scan.push(uglyLog());
  scan.end();

  it('make what attributionJsonItem(attributeRecord(...)) makes, for every record of the ugly log', () => {
    // the ledger the log refers to, and the same history as a table (what a store loads)
    for (const h of [history, tableOf(history.intervals())]) {
      const finisher = new JsonItemFinisher(h, 5 * 60_000);
      const write = (r: AttributionInput) =>
        finisher.item(r.line, r.time, upstreamIpOf(r), attributionJsonMiddle(r));
      expect(records.length).toBeGreaterThan(30);
      for (const r of records) {
        const want = attributionJsonItem(attributeRecord(r, history));
        expect(write(r)).toBe(want);
        // the second time from the pod text cache
        expect(write(r)).toBe(want);
      }
    }
  });

  it('make the same items from a table as from the interval lists, in every state', () => {
    const list = intervals(5);
    const table = tableOf(list);
    const byIp = new Map<string, PodInterval[]>(list.map((i) => [i.ip, table.history(i.ip)]));
    const lists: IpHistory = {
      at: (ip, t, gap) => lookupInSorted(ip, t, byIp.get(ip) ?? [], gap ?? 0),
      history: (ip) => [...(byIp.get(ip) ?? [])],
      intervals: () => [...byIp.values()].flat(),
    };
    const fromTable = new JsonItemFinisher(table, 2 * MIN);
    const fromLists = new JsonItemFinisher(lists, 2 * MIN);
    const states = new Set<string>();
    for (const ip of [...byIp.keys(), '192.0.2.9'])
      for (let m = 0; m < 200; m += 3) {
        const t = T0 + m * MIN + 17_000;
        states.add(lists.at(ip, t, 2 * MIN).state);
        expect(fromTable.item(m, t, ip, ',\n      "x": ')).toBe(
          fromLists.item(m, t, ip, ',\n      "x": '),
        );
      }
    expect([...states].sort()).toEqual(['live', 'terminated', 'terminating', 'unknown']);
  });
});
