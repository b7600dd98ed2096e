import { describe, expect, it } from 'vitest';
import { scanVector } from './prom-vector';
import { parseFloatStrict } from './value';

/** The same answer read the plain way: JSON.parse, then each series. */
function viaJson(text: string) {
  const body = JSON.parse(text) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  const r = body.data.result;
  return {
    labels: r.map((s) => s.metric),
    atMs: Float64Array.from(r.map((s) => Math.round(s.value[0] * 1000))),
    values: Float64Array.from(r.map((s) => parseFloatStrict(s.value[1]) ?? NaN)),
  };
}

/** An answer as Prometheus writes it (compact JSON, labels sorted by name). */
function answer(series: { metric: Record<string, string>; value: [number, string] }[]): string {
  return JSON.stringify({ status: 'success', data: { resultType: 'vector', result: series } });
}

const fleet = Array.from({ length: 300 }, (_, i) => ({
  metric: { namespace: `scale-${i % 7}`, pod: `svc-${i}-z6hkb29mzv-4m2rc`, tag: '1.24.2' },
  value: [1764590400.123 + i / 1000, String(100 + (i % 13))] as [number, string],
}));

describe('scanVector', () => {
  it("reads Prometheus's compact vector answer as JSON.parse does", () => {
    for (const series of [
      fleet,
      [],
      [{ metric: {}, value: [1764590400, '1'] as [number, string] }],
      [
        { metric: { pod: 'a' }, value: [1.5e9, 'NaN'] as [number, string] },
        { metric: { pod: 'b' }, value: [1764590400.5, '+Inf'] as [number, string] },
        { metric: { pod: 'c' }, value: [1764590400.999, '-Inf'] as [number, string] },
        { metric: { pod: 'd' }, value: [1764590400, '1.5e+06'] as [number, string] },
        { metric: { pod: 'é—日本' }, value: [1764590400, '-0.25'] as [number, string] },
      ],
    ]) {
      const text = answer(series);
      const got = scanVector(text);
      expect(got).not.toBeNull();
      expect(got).toEqual(viaJson(text));
    }
    // a trailing newline, as an HTTP body may end
    expect(scanVector(`${answer(fleet)}\n`)?.labels.length).toBe(300);
  });

  it('leaves to JSON.parse what it does not read exactly (null, never a wrong answer)', () => {
    const text = answer(fleet);
    const cases = [
      // escapes in a label value
      answer([{ metric: { path: 'C:\\stats', q: 'say "hi"' }, value: [1, '1'] }]),
      // warnings after the data
      text.slice(0, -1) + ',"warnings":["partial answer"]}',
      // spaces (another writer, pretty-printed)
      JSON.stringify(JSON.parse(text), null, 1),
      // cut anywhere
      text.slice(0, text.length - 1),
      text.slice(0, 5_000),
      text.slice(0, 70),
      // other shapes and errors
      JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: [] } }),
      JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error' }),
      answer([{ metric: { pod: 'a' }, value: [1, 'twelve'] }]),
      answer([{ metric: { pod: 'a' }, value: [1, '1'] }]).replace('[1,', '["1",'),
      'not json at all',
      '',
    ];
    for (const c of cases) expect(scanVector(c)).toBeNull();
  });
});

describe('parseFloatStrict, as sample values are read', () => {
  it("reads Go's float text", () => {
    expect(parseFloatStrict('112')).toBe(112);
    expect(parseFloatStrict('NaN')).toBeNaN();
    expect(parseFloatStrict('+Inf')).toBe(Infinity);
    expect(parseFloatStrict('-Inf')).toBe(-Infinity);
    expect(parseFloatStrict('1e-3')).toBe(0.001);
    expect(parseFloatStrict('twelve')).toBeNull();
    expect(parseFloatStrict('')).toBeNull();
    expect(parseFloatStrict('0x10')).toBeNull();
  });
});
