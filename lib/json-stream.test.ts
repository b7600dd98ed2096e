import { describe, expect, it } from 'vitest';
import { createJsonSplitter } from './json-stream';
import { excerptOf } from './parse-problem';

function split(text: string, options = {}, step = text.length) {
  const s = createJsonSplitter(options);
  const values: { text: string; line: number; column: number }[] = [];
  const problems: { line: number; column: number; reason: string }[] = [];
  for (let i = 0; i < text.length; i += step) {
    const r = s.push(text.slice(i, i + step));
    values.push(...r.values);
    problems.push(...r.problems);
  }
  problems.push(...s.end().problems);
  return {
    texts: values.map((v) => v.text),
    at: values.map((v) => [v.line, v.column]),
    problems: problems.map((p) => [p.line, p.column, p.reason]),
  };
}

describe('the one JSON stream splitter', () => {
  it('splits JSON lines and pretty values, in any chunking, with commas between', () => {
    const text = '{"a":1}\n{\n    "b": "x}"\n}\n , [1,[2]]\n';
    for (const step of [1, 3, 100]) {
      const r = split(text, {}, step);
      expect(r.texts).toEqual(['{"a":1}', '{\n    "b": "x}"\n}', '[1,[2]]']);
      expect(r.at).toEqual([
        [1, 1],
        [2, 1],
        [5, 4],
      ]);
      expect(r.problems).toEqual([]);
    }
  });

  it('a cut value ends where the next value starts a line; the rest is read', () => {
    const r = split('{"a":{"b":\ngarbage\n{"c":1}\n{"d":"open string\n{"e":2}\n');
    expect(r.texts).toEqual(['{"c":1}', '{"e":2}']);
    expect(r.problems).toEqual([
      [1, 1, 'truncated'],
      [4, 1, 'truncated'],
    ]);
  });

  it('stray text is reported with its position and the excerpt', () => {
    const s = createJsonSplitter();
    const r = s.push('{"a":1}\nnot json at all\n');
    expect(r.problems).toEqual([
      expect.objectContaining({
        line: 2,
        column: 1,
        reason: 'not-json',
        excerpt: 'not json at all',
      }),
    ]);
  });

  it('skips a value nested deeper than the limit without keeping it', () => {
    const deep = `${'['.repeat(50)}${']'.repeat(50)}`;
    const r = split(`{"ok":1}\n${deep}\n{"ok":2}\n`, { maxDepth: 20 }, 7);
    expect(r.texts).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(r.problems).toEqual([[2, 1, 'too-deep']]);
    // the default limit lets JSON.parse take whatever comes through
    const big = split(`${'['.repeat(400)}${']'.repeat(400)}`);
    expect(() => JSON.parse(big.texts[0] as string)).not.toThrow();
  });

  it('skips a value longer than the limit', () => {
    const long = JSON.stringify({ s: 'x'.repeat(5000) });
    const r = split(`${long}\n{"ok":1}\n`, { maxValueChars: 1000 }, 256);
    expect(r.texts).toEqual(['{"ok":1}']);
    expect(r.problems).toEqual([[1, 1, 'too-large']]);
  });

  it('excerpts are one line and bounded', () => {
    expect(excerptOf('a\nb', 10)).toBe('a b');
    expect(excerptOf('x'.repeat(20), 10)).toHaveLength(10);
  });
});
