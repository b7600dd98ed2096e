import { describe, expect, it } from 'vitest';
import {
  excerptOf,
  positionAt,
  problemPosition,
  problemText,
  type ParseProblem,
} from './parse-problem';

describe('parse problems', () => {
  const truncated: ParseProblem = {
    line: 3,
    column: 14,
    reason: 'truncated',
    message: 'JSON value ends before it is complete',
    excerpt: '{"kind":"Pod","metadata":{"na',
  };

  it('says where a problem is, and nothing for the input as a whole', () => {
    expect(problemPosition(truncated)).toBe('line 3, column 14');
    expect(problemPosition({ line: 9 })).toBe('line 9');
    expect(problemPosition({ line: 0, column: 4 })).toBe('');
  });

  it('prints the position, the sentence and the text it is about', () => {
    expect(problemText(truncated)).toBe(
      'line 3, column 14: JSON value ends before it is complete: {"kind":"Pod","metadata":{"na',
    );
    expect(problemText({ line: 0, reason: 'empty', message: 'input is empty' })).toBe(
      'input is empty',
    );
  });

  it('turns a character offset into a 1-based line and column', () => {
    const text = 'apiVersion: v1\nkind: Pod\r\nmetadata: {';
    expect(positionAt(text, 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt(text, text.indexOf('Pod'))).toEqual({ line: 2, column: 7 });
    expect(positionAt(text, text.indexOf('{'))).toEqual({ line: 3, column: 11 });
    // past the end: the end
    expect(positionAt(text, 10_000)).toEqual({ line: 3, column: 12 });
  });

  it('keeps an excerpt on one line and cuts it at the limit', () => {
    expect(excerptOf('a\r\nb\nc')).toBe('a b c');
    expect(excerptOf('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
