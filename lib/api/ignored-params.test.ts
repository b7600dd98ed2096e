import { describe, expect, it } from 'vitest';
import {
  closestName,
  editDistance,
  ignoredParams,
  ignoredText,
  shownValue,
} from './ignored-params';

const TIMELINES = [
  'namespace',
  'workload',
  'verdict',
  'q',
  'sort',
  'dir',
  'pod',
  'page',
  'from',
  'to',
];

describe('ignoredParams', () => {
  it('names what the page does not read, with the parameter it may have meant', () => {
    const given = new URLSearchParams(
      'namespce=shop&context=prod&verdict=race&Workload=cart&utm_source=chat&namespce=ads-1',
    );
    expect(ignoredParams(given, TIMELINES, ['context'])).toEqual([
      { name: 'namespce', values: ['shop', 'ads-1'], meant: 'namespace' },
      { name: 'Workload', values: ['cart'], meant: 'workload' },
      { name: 'utm_source', values: ['chat'], meant: null },
    ]);
  });

  it('is empty when every parameter is read, and reads context only where told', () => {
    expect(
      ignoredParams(new URLSearchParams('namespace=a&pod=a/b'), TIMELINES, ['context']),
    ).toEqual([]);
    expect(ignoredParams(new URLSearchParams('context=x'), [], [])).toEqual([
      { name: 'context', values: ['x'], meant: null },
    ]);
  });

  it('keeps an empty value and a parameter without a name', () => {
    expect(ignoredParams(new URLSearchParams('=x&sev='), ['severity'])).toEqual([
      { name: '', values: ['x'], meant: null },
      { name: 'sev', values: [''], meant: null },
    ]);
  });
});

describe('closestName', () => {
  it('takes a case difference, a transposition, a missing or extra letter', () => {
    expect(closestName('NAMESPACE', TIMELINES)).toBe('namespace');
    expect(closestName('nmaespace', TIMELINES)).toBe('namespace');
    expect(closestName('namespaces', TIMELINES)).toBe('namespace');
    expect(closestName('verdcit', TIMELINES)).toBe('verdict');
    expect(closestName('workloads', TIMELINES)).toBe('workload');
  });

  it('is strict with short names and gives nothing on a tie or far off', () => {
    // names of four characters or fewer allow one edit
    expect(closestName('too', TIMELINES)).toBe('to');
    expect(closestName('fro', TIMELINES)).toBe('from');
    expect(closestName('dod', TIMELINES)).toBe('pod');
    expect(closestName('pg', TIMELINES)).toBeNull();
    // one edit from both: no guess
    expect(closestName('xo', ['to', 'do'])).toBeNull();
    expect(closestName('cluster', TIMELINES)).toBeNull();
    expect(closestName('x', [])).toBeNull();
  });
});

describe('editDistance', () => {
  it('counts edits, a transposition as one, and stops past the limit', () => {
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('ab', 'ba', 2)).toBe(1);
    expect(editDistance('', 'abc', 5)).toBe(3);
    expect(editDistance('abcdef', 'uvwxyz', 2)).toBe(3);
    expect(editDistance('a', 'abcdefg', 2)).toBe(3);
    expect(editDistance('same', 'same', 0)).toBe(0);
  });
});

describe('ignoredText', () => {
  it('names a parameter with its values, cut where a link is long or repeats it', () => {
    expect(ignoredText({ name: 'namespce', values: ['shop', 'ads'], meant: 'namespace' })).toBe(
      'namespce=shop&namespce=ads',
    );
    const many = {
      name: 'x',
      values: Array.from({ length: 500 }, (_, i) => String(i)),
      meant: null,
    };
    expect(ignoredText(many)).toBe('x=0&x=1&x=2 (and 497 more values)');
    const long = ignoredText({ name: 'n'.repeat(5000), values: ['v'.repeat(5000)], meant: null });
    expect(long).toBe(`${'n'.repeat(80)}…=${'v'.repeat(80)}…`);
  });
});

describe('shownValue', () => {
  it('cuts long values by characters, never inside one', () => {
    expect(shownValue('shop')).toBe('shop');
    const long = '🚀'.repeat(100);
    const shown = shownValue(long);
    expect([...shown]).toHaveLength(81);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.startsWith('🚀')).toBe(true);
  });
});
