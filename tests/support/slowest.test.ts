import { describe, expect, it } from 'vitest';
import { formatSlowest, slowest } from '../../test-support/slowest';

const t = (file: string, title: string, ms: number) => ({ file, title, ms });

describe('slowest', () => {
  it('keeps the n slowest, slowest first, ties in their order', () => {
    const tests = [
      t('a.test.ts', 'one', 120),
      t('b.test.ts', 'two', 9_000),
      t('a.test.ts', 'three', 120),
      t('c.test.ts', 'four', 40_500),
    ];
    expect(slowest(tests, 3).map((x) => x.title)).toEqual(['four', 'two', 'one']);
    expect(slowest(tests).map((x) => x.title)).toEqual(['four', 'two', 'one', 'three']);
    expect(slowest(tests, 0)).toEqual([]);
  });

  it('names a test without a duration and a count that is not one', () => {
    expect(() => slowest([t('a.test.ts', 'lost', Number.NaN)])).toThrow(
      'slowest: a.test.ts "lost" has no duration (NaN)',
    );
    expect(() => slowest([], -1)).toThrow('slowest: -1 is not a count of tests');
  });
});

describe('formatSlowest', () => {
  it('prints seconds aligned, then file and title (a whole file without one)', () => {
    expect(
      formatSlowest('Slowest', [t('e2e/x.spec.ts', 'a › b', 40_512), t('y.test.ts', '', 900)]),
    ).toBe('Slowest:\n  40.5 s  e2e/x.spec.ts › a › b\n   0.9 s  y.test.ts\n');
  });

  it('says so when nothing ran', () => {
    expect(formatSlowest('Slowest', [])).toBe('Slowest: no test ran\n');
  });
});
