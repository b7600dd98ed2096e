import { describe, it, expect } from 'vitest';
import { parsePrometheusText } from './prometheus';
import { histogramQuantile, readHistogram } from './histogram';

const GOOD = [
  '# HELP http_requests_total The total number of HTTP requests.',
  '# TYPE http_requests_total counter',
  'http_requests_total{method="post",code="200"} 1027 1395066363000',
  'http_requests_total{method="post",code="400"}    3 1395066363000',
  '',
  '# Escaping in label values:',
  'msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9',
  'metric_without_timestamp_and_labels 12.47',
  'something_weird{problem="division by zero"} +Inf -3982045',
  'not_a_number NaN',
  '# HELP rpc_duration A histogram.\\nSecond line with \\\\ backslash',
  '# TYPE rpc_duration histogram',
  'rpc_duration_bucket{le="0.05"} 24054',
  'rpc_duration_bucket{le="0.1"} 33444',
  'rpc_duration_bucket{le="0.2"} 100392',
  'rpc_duration_bucket{le="+Inf"} 144320',
  'rpc_duration_sum 53423',
  'rpc_duration_count 144320',
  'trailing_comma{a="1",} 2',
  '{"my.dotted.metric", "label.x"="y"} 5',
].join('\n');

describe('parsePrometheusText', () => {
  const r = parsePrometheusText(`${GOOD}\n`);

  it('accounts for every line', () => {
    expect(r.errors).toEqual([]);
    const lines = GOOD.split('\n');
    expect(r.counts.lines).toBe(lines.length);
    expect(r.counts.samples).toBe(
      lines.filter((l) => l.trim() !== '' && !l.startsWith('#')).length,
    );
    expect(r.counts.comments).toBe(lines.filter((l) => l.startsWith('#')).length);
    expect(r.counts.blank).toBe(1);
  });

  it('reads labels with escapes, timestamps, +Inf and NaN', () => {
    const byName = (n: string) => r.samples.filter((s) => s.name === n);
    expect(byName('http_requests_total')[1]).toMatchObject({
      labels: { method: 'post', code: '400' },
      value: 3,
      timestampMs: 1395066363000,
      family: 'http_requests_total',
      line: 4,
    });
    expect(byName('msdos_file_access_time_seconds')[0]?.labels).toEqual({
      path: 'C:\\DIR\\FILE.TXT',
      error: 'Cannot find file:\n"FILE.TXT"',
    });
    expect(byName('something_weird')[0]).toMatchObject({ value: Infinity, timestampMs: -3982045 });
    expect(Number.isNaN(byName('not_a_number')[0]?.value)).toBe(true);
    expect(byName('trailing_comma')[0]?.labels).toEqual({ a: '1' });
    expect(byName('my.dotted.metric')[0]).toMatchObject({ labels: { 'label.x': 'y' }, value: 5 });
  });

  it('reads HELP/TYPE and ties histogram series to their family', () => {
    expect(r.families.rpc_duration).toEqual({
      name: 'rpc_duration',
      type: 'histogram',
      help: 'A histogram.\nSecond line with \\ backslash',
    });
    const series = r.samples.filter((s) => s.family === 'rpc_duration');
    expect(series).toHaveLength(6);
    const h = readHistogram(r.samples, 'rpc_duration');
    expect(h?.buckets.map((b) => b.le)).toEqual([0.05, 0.1, 0.2, Infinity]);
    expect(h?.sum).toBe(53423);
    expect(h?.count).toBe(144320);
    // rank 72160 falls in (0.1, 0.2]: 0.1 + 0.1 * (72160 - 33444) / (100392 - 33444)
    expect(histogramQuantile(0.5, h?.buckets ?? [])).toBeCloseTo(0.1 + (0.1 * 38716) / 66948, 10);
  });

  it('reports ugly lines with line numbers and keeps going', () => {
    const ugly = [
      'ok_metric 1',
      'no_value',
      'bad_value{a="b"} twelve',
      'unterminated{a="b} 1',
      'bad_escape{a="\\q"} 1',
      'dup{a="1",a="2"} 1',
      'missing_eq{a "1"} 1',
      '# TYPE x flavour',
      'extra_tokens 1 2 3',
      'float_ts 1 1.5',
      '   indented_ok 7',
      'ok_crlf 2\r',
    ].join('\n');
    const u = parsePrometheusText(ugly);
    expect(u.samples.map((s) => s.name)).toEqual(['ok_metric', 'indented_ok', 'ok_crlf']);
    expect(u.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(u.counts).toEqual({ lines: 12, samples: 3, comments: 0, blank: 0, errors: 9 });
    expect(u.errors[1]).toMatchObject({ message: 'invalid value "twelve"', column: 18 });
    expect(u.errors[3]?.message).toContain('escape');
    expect(u.errors[4]?.message).toContain('duplicate label');
  });

  it('never throws on binary junk', () => {
    const junk = parsePrometheusText('\u0000\u0001{{{}}} ###\n"""\n');
    expect(junk.counts.lines).toBe(2);
    expect(junk.counts.errors + junk.counts.comments + junk.counts.samples).toBe(2);
  });
});

describe('histogramQuantile', () => {
  it('handles empty, single-bucket and +Inf-only cases', () => {
    expect(histogramQuantile(0.5, [])).toBeNull();
    expect(histogramQuantile(0.5, [{ le: Infinity, count: 0 }])).toBeNull();
    expect(
      histogramQuantile(0.5, [
        { le: 10, count: 4 },
        { le: Infinity, count: 4 },
      ]),
    ).toBe(5);
    expect(
      histogramQuantile(0.99, [
        { le: 10, count: 1 },
        { le: Infinity, count: 10 },
      ]),
    ).toBe(10);
  });
});
