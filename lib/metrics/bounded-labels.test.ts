import { describe, expect, it } from 'vitest';
import { boundLabel, OTHER_LABEL } from './bounded-labels';

const c = (namespace: string, code: string, value: number) => ({
  labels: { namespace, code },
  value,
});

describe('a label bounded to its largest values', () => {
  it('keeps the largest namespaces and sums the rest under _other, per other label', () => {
    const counts = [
      c('shop', 'A', 5),
      c('web', 'A', 1),
      c('web', 'B', 1),
      c('ops', 'A', 2),
      c('ops', 'B', 1),
    ];
    const out = boundLabel(counts, 'namespace', 2);
    expect(out).toEqual([
      c('shop', 'A', 5),
      c(OTHER_LABEL, 'A', 1),
      c(OTHER_LABEL, 'B', 1),
      c('ops', 'A', 2),
      c('ops', 'B', 1),
    ]);
    // nothing is lost: the sum is the same
    expect(out.reduce((s, x) => s + x.value, 0)).toBe(10);
  });

  it('ties go by name; a bound of 0 puts everything in _other; no counts, no series', () => {
    expect(boundLabel([c('b', 'A', 1), c('a', 'A', 1)], 'namespace', 1)).toEqual([
      c(OTHER_LABEL, 'A', 1),
      c('a', 'A', 1),
    ]);
    expect(boundLabel([c('a', 'A', 1), c('b', 'A', 2)], 'namespace', 0)).toEqual([
      c(OTHER_LABEL, 'A', 3),
    ]);
    expect(boundLabel([], 'namespace', 5)).toEqual([]);
  });

  it('a namespace literally named _other (not a DNS label, but a value) is merged, not doubled', () => {
    const out = boundLabel([c('_other', 'A', 1), c('x', 'A', 1), c('y', 'A', 9)], 'namespace', 1);
    expect(out).toEqual([c(OTHER_LABEL, 'A', 2), c('y', 'A', 9)]);
  });
});
