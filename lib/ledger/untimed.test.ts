import { describe, expect, it } from 'vitest';
import { collectRequests } from '../incidents/collect';
import type { IpHistory } from './ip-history';
import { createRecordScan } from './scan';
import { describeUntimed, emptyUntimed, mergeUntimed, noteUntimed } from './untimed';

const TIMED =
  '[2024-03-01T10:00:00.123Z] "GET / HTTP/1.1" 503 UC - - "-" 0 95 44 - "-" "curl" "id" "h" "10.244.1.7:8080" outbound|80||h.default.svc.cluster.local - - - - -';
const UNTIMED = TIMED.slice(TIMED.indexOf('] ') + 2);

describe('requests without a time are counted and listed, never dropped', () => {
  it('a scan lists the failing lines that had no time', () => {
    const seen: number[] = [];
    const scan = createRecordScan({ onRecord: (r) => void seen.push(r.line) });
    scan.push(new TextEncoder().encode([TIMED, UNTIMED, 'junk', UNTIMED, ''].join('\n')));
    const r = scan.end();
    expect(seen).toEqual([1, 2, 4]);
    expect(r.untimed).toEqual({ count: 2, lines: [2, 4] });
    expect(r.errors).toBe(1);
    expect(describeUntimed(r.untimed)).toMatch(
      /^2 requests to attribute had no time \(lines 2, 4\)/,
    );
  });

  it('a line longer than the limit is unreadable (too-long), with its number', () => {
    const scan = createRecordScan({ onRecord: () => undefined, maxLineBytes: 64 });
    scan.push(new TextEncoder().encode(`${TIMED}\n${UNTIMED.slice(0, 40)}\n`));
    const r = scan.end();
    expect(r.unreadable).toEqual([{ line: 1, reason: 'too-long' }]);
    // the cut second line still has its head: a record (without time) all the same
    expect(r.requests).toBe(1);
    expect(r.untimed).toEqual({ count: 1, lines: [2] });
  });

  it('merging parts renumbers lines and keeps the bound', () => {
    const a = emptyUntimed();
    noteUntimed(a, 3);
    const b = emptyUntimed();
    noteUntimed(b, 1);
    noteUntimed(b, 2);
    mergeUntimed(a, b, 10, 2);
    expect(a).toEqual({ count: 3, lines: [3, 11] });
    expect(describeUntimed(emptyUntimed())).toBeNull();
    expect(describeUntimed(a, 1)).toContain('lines 3, ... (2 more)');
  });
});

describe('the Incidents view’s collection lists them too', () => {
  it('counts failing requests without a time, with their line numbers', () => {
    const history: IpHistory = {
      history: () => [],
      intervals: () => [],
      at: (ip, time) => ({
        ip,
        time,
        holder: null,
        state: 'unknown',
        afterTerminationMs: null,
        reason: 'none',
      }),
    };
    const out = collectRequests(
      [{ source: 'gw', clientPod: null, text: `${TIMED}\n${UNTIMED}\n` }],
      history,
      { fromMs: null, toMs: null, service: null, ip: null },
    );
    expect(out.untimed).toEqual({ count: 1, lines: [2] });
  });
});
