import { describe, it, expect } from 'vitest';
import { PASS, PARSE, prescanLine, prescanAppliesTo } from './prescan';
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
