import { describe, it, expect } from 'vitest';
import { createPrescan, PASS, PARSE, prescanLine, prescanAppliesTo } from './prescan';
import { mulberry32 } from '../random';
import { createLineSplitter } from './lines';
import { readFixture } from '../../test-support/fixtures';
import { parseAccessLog } from './parser';
import { isFailure } from './failure';

const verdict = (line: string) => {
  const b = Buffer.from(line);
  return prescanLine(b, 0, b.length);
};
const HEAD = '[2024-06-01T10:00:00.000Z] "GET /x HTTP/1.1"';

describe('prescanLine', () => {
  it('passes only non-failing records of Istio shape', () => {
    expect(verdict(`${HEAD} 200 - via_upstream`)).toBe(PASS);
    expect(verdict(`${HEAD} - - x`)).toBe(PASS);
    expect(verdict(`${HEAD} 200  x`)).toBe(PASS);
    expect(verdict(`${HEAD} 200 - x\r`)).toBe(PASS);
    expect(verdict(`2024-06-01T10:00:00.5Z ${HEAD} 404 - x`)).toBe(PASS);
    expect(verdict(`${HEAD} 503 - x`)).toBe(PARSE);
    expect(verdict(`${HEAD} 200 UC x`)).toBe(PARSE);
    expect(verdict(`${HEAD} 200 -`)).toBe(PARSE);
    expect(verdict(`${HEAD} 2x0 - x`)).toBe(PARSE);
    expect(verdict('{"response_code":200}')).toBe(PARSE);
    expect(verdict('[2024-06-01 10:00:00.000][15][info] x')).toBe(PARSE);
    expect(verdict('')).toBe(PARSE);
    // kubectl logs --prefix (and --timestamps): the prefix is skipped, the rest judged
    expect(verdict(`[pod/web-1/istio-proxy] ${HEAD} 200 - x`)).toBe(PASS);
    expect(verdict(`[pod/web-1/istio-proxy] 2024-06-01T10:00:00.5Z ${HEAD} 200 - x`)).toBe(PASS);
    expect(verdict(`[pod/web-1/istio-proxy] ${HEAD} 503 UC x`)).toBe(PARSE);
    expect(verdict(`[pod/web-1/a/b] ${HEAD} 200 - x`)).toBe(PARSE);
    expect(verdict(`[pod//istio-proxy] ${HEAD} 200 - x`)).toBe(PARSE);
    expect(verdict(`[pod/web-1/istio-proxy]${HEAD} 200 - x`)).toBe(PARSE);
  });

  it('on the real Istio docs log: every PASS line is a non-failing record for the parser', () => {
    const text = readFixture('access_logs', 'istio-io-docs_text_multi-version.log');
    const results = parseAccessLog(text);
    const lines = text.split('\n');
    let passed = 0;
    results.forEach((r, i) => {
      if (verdict(lines[i] as string) !== PASS) return;
      passed++;
      expect(r.kind).toBe('record');
      if (r.kind === 'record') expect(isFailure(r.record)).toBe(false);
    });
    const nonFailing = results.filter((r) => r.kind === 'record' && !isFailure(r.record)).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThanOrEqual(nonFailing);
  });

  it('never passes a line the parser would read otherwise: mutated heads, tabs and spaces anywhere', () => {
    const bases = [
      `${HEAD} 200 - via_upstream - "-" 0 95 3 - "-" "curl" "rid" "a:80" "10.8.0.5:8080" outbound|80||a 1.1.1.1:1 2.2.2.2:2 3.3.3.3:3 - default`,
      `[2024-06-01T10:00:00.000Z] "POST /a/very/long/path?with=query&and=more HTTP/2" 404 - x`,
      `2024-06-01T10:00:00.123456789Z [2024-06-01T10:00:00Z] "- - -" - - 0 0`,
      `[1717236000] "GET / HTTP/1.1" 301  x`,
      `[pod/web-1/istio-proxy] [2024-06-01T10:00:00.000Z] "GET /x HTTP/1.1" 200 - x`,
    ];
    const junk = [' ', '\t', '"', ']', '[', '-', '5', 'é', '\r', 'A', ',', '\u0000'];
    const r = mulberry32(11);
    let passed = 0;
    let checked = 0;
    for (const base of bases)
      for (let n = 0; n < 600; n++) {
        // 1 to 3 edits (insert, replace or delete) in the first 90 characters
        let line = base;
        for (let k = 1 + Math.floor(r() * 3); k > 0; k--) {
          const at = Math.floor(r() * Math.min(90, line.length));
          const j = junk[Math.floor(r() * junk.length)] as string;
          const op = r();
          line =
            op < 0.4
              ? line.slice(0, at) + j + line.slice(at)
              : op < 0.8
                ? line.slice(0, at) + j + line.slice(at + 1)
                : line.slice(0, at) + line.slice(at + 1);
        }
        checked++;
        if (verdict(line) !== PASS) continue;
        passed++;
        const [result] = parseAccessLog(line);
        expect(result?.kind, line).toBe('record');
        if (result?.kind === 'record') expect(isFailure(result.record), line).toBe(false);
      }
    expect(checked).toBe(3000);
    // mutations outside the head leave most lines passing: the test sees both verdicts
    expect(passed).toBeGreaterThan(100);
    expect(passed).toBeLessThan(checked - 500);
  });

  it('knows which lines of a buffer have tabs, asked in order, and forgets a refilled buffer', () => {
    const clean = `${HEAD} 200 - x`;
    const tabbed = `[2024-06-01T10:00:00.000Z] "GET /x\tb HTTP/1.1" 200 - x`;
    const b = Buffer.from([clean, tabbed, clean].join('\n'));
    const p = createPrescan();
    const one = clean.length;
    const two = one + 1 + tabbed.length;
    expect(p.line(b, 0, one)).toBe(PASS);
    expect(p.line(b, one + 1, two)).toBe(PARSE);
    expect(p.line(b, two + 1, b.length)).toBe(PASS);
    // a buffer without tabs, then refilled with one in its second line
    const r = Buffer.from([clean, clean, clean].join('\n'));
    expect(p.line(r, 0, one)).toBe(PASS);
    Buffer.from([clean, tabbed].join('\n')).copy(r);
    p.forget();
    expect(p.line(r, one + 1, two)).toBe(PARSE);
  });

  it('applies to Istio-shaped custom formats only', () => {
    expect(prescanAppliesTo({})).toBe(true);
    expect(prescanAppliesTo({ format: '%START_TIME% %RESPONSE_CODE%' })).toBe(false);
    expect(prescanAppliesTo({ onlyCustom: true })).toBe(false);
  });
});

describe('createLineSplitter', () => {
  it('hands over lines across chunk boundaries, a last line without newline included', () => {
    const got: string[] = [];
    const s = createLineSplitter((b, st, e) => got.push(Buffer.from(b.subarray(st, e)).toString()));
    const data = Buffer.from('ab\n\ncdef\r\nlast');
    for (let i = 0; i < data.length; i += 3) s.push(data.subarray(i, i + 3));
    s.end();
    expect(got).toEqual(['ab', '', 'cdef\r', 'last']);
    expect(s.lines).toBe(4);
  });
});
