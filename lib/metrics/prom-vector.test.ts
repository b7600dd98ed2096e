import { describe, expect, it } from 'vitest';
import { AsciiTexts } from '../ascii-text';
import { scanVector } from './prom-vector';
import { parseFloatStrict } from './value';

/** The same answer read the plain way: JSON.parse, then each series. */
function viaJson(text: string, names: readonly string[]) {
  const body = JSON.parse(text) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  const r = body.data.result;
  return {
    count: r.length,
    columns: names.map((n) => r.map((s) => (Object.hasOwn(s.metric, n) ? s.metric[n] : undefined))),
    atMs: Float64Array.from(r.map((s) => Math.round(s.value[0] * 1000))),
    values: Float64Array.from(r.map((s) => parseFloatStrict(s.value[1]) ?? NaN)),
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);
const NAMES = ['namespace', 'pod', 'tag'];

/** An answer as Prometheus writes it (compact JSON, labels sorted by name). */
function answer(series: { metric: Record<string, string>; value: [number, string] }[]): string {
  return JSON.stringify({ status: 'success', data: { resultType: 'vector', result: series } });
}

const fleet = Array.from({ length: 300 }, (_, i) => ({
  metric: { namespace: `scale-${i % 7}`, pod: `svc-${i}-z6hkb29mzv-4m2rc`, tag: '1.24.2' },
  value: [1764590400.123 + i / 1000, String(100 + (i % 13))] as [number, string],
}));

type SeriesIn = { metric: Record<string, string>; value: [number, string] }[];

describe('scanVector', () => {
  it("reads Prometheus's compact vector answer as JSON.parse does", () => {
    for (const series of <SeriesIn[]>[
      fleet,
      [],
      [{ metric: {}, value: [1764590400, '1'] as [number, string] }],
      [
        { metric: { pod: 'a' }, value: [1.5e9, 'NaN'] as [number, string] },
        { metric: { pod: 'b' }, value: [1764590400.5, '+Inf'] as [number, string] },
        { metric: { pod: 'c' }, value: [1764590400.999, '-Inf'] as [number, string] },
        { metric: { pod: 'd' }, value: [1764590400, '1.5e+06'] as [number, string] },
        { metric: { pod: 'é—日本' }, value: [1764590400, '-0.25'] as [number, string] },
        // other labels around the ones asked for, in Prometheus's (sorted) order
        {
          metric: { __name__: 'x', app: 'web', namespace: 'shop', pod: 'web-1', zone: 'a' },
          value: [1764590400.1, '007'] as [number, string],
        },
        // times and values the digits are not read exactly from: Number reads them
        { metric: { pod: 'e' }, value: [-12.5, '1234567890123456789'] as [number, string] },
        { metric: { pod: 'f' }, value: [1764590400.12345, '0.1'] as [number, string] },
        { metric: { pod: 'g' }, value: [1.7645904e9, '-3'] as [number, string] },
        { metric: { pod: 'h' }, value: [0, '0'] as [number, string] },
        {
          metric: { pod: 'i' },
          value: [123456789012345.6, '9007199254740993'] as [number, string],
        },
      ],
    ]) {
      const text = answer(series);
      for (const names of [NAMES, [], ['pod'], ['zone', 'namespace']]) {
        const got = scanVector(bytes(text), names);
        expect(got).not.toBeNull();
        expect(got).toEqual(viaJson(text, names));
      }
    }
    // white space after the answer, as an HTTP body may end
    expect(scanVector(bytes(`${answer(fleet)}\n`), NAMES)?.count).toBe(300);
    expect(scanVector(bytes(`${answer(fleet)}\r\n \t`), NAMES)?.count).toBe(300);
  });

  it('reads ill-formed UTF-8 in a label value as JSON.parse of the decoded answer does', () => {
    // a cut sequence (E2 82) and a lone continuation byte (80), then plain ASCII labels after
    const text = answer([
      { metric: { namespace: 'shop', pod: 'aXXb' }, value: [1764590400, '1'] },
      { metric: { namespace: 'shop', pod: 'web-1' }, value: [1764590400, '2'] },
      { metric: { namespace: 'Y', pod: 'é' }, value: [1764590400, '3'] },
    ]);
    const raw = bytes(text);
    const at = text.indexOf('XX');
    raw[at] = 0xe2;
    raw[at + 1] = 0x82;
    const y = text.indexOf('"Y"') + 1;
    raw[y] = 0x80;
    const decoded = new TextDecoder().decode(raw);
    expect(decoded).toContain('\ufffd');
    for (const names of [NAMES, ['pod']])
      expect(scanVector(raw, names)).toEqual(viaJson(decoded, names));
  });

  it('reads answers alike with the label texts of one read shared between them', () => {
    const texts = new AsciiTexts();
    const one = scanVector(bytes(answer(fleet)), NAMES, texts);
    const two = scanVector(bytes(answer([...fleet].reverse())), NAMES, texts);
    const pods = (v: typeof one) => v?.columns[1] ?? [];
    expect(pods(two)).toEqual([...pods(one)].reverse());
    expect(two?.columns[0]).toEqual([...(one?.columns[0] ?? [])].reverse());
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
      // numbers JSON does not allow, a label given twice, something after the answer
      answer([{ metric: { pod: 'a' }, value: [1, '1'] }]).replace('[1,', '[01,'),
      answer([{ metric: { pod: 'a' }, value: [1, '1'] }]).replace('[1,', '[1.,'),
      answer([{ metric: { pod: 'a' }, value: [1, '1'] }]).replace(
        '"pod":"a"',
        '"pod":"a","pod":"b"',
      ),
      `${text}x`,
      // a control character inside a label value (invalid JSON)
      answer([{ metric: { pod: 'a' }, value: [1, '1'] }]).replace('"a"', '"a\u0001"'),
      'not json at all',
      '',
    ];
    for (const c of cases) expect(scanVector(bytes(c), NAMES)).toBeNull();
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
