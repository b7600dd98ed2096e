import { describe, expect, it } from 'vitest';
import { rowMove } from './row-keys';

describe('rowMove', () => {
  it('moves by one, by a page and to the ends, never past them', () => {
    expect(rowMove('ArrowDown', 0, 50, 10)).toBe(1);
    expect(rowMove('ArrowUp', 0, 50, 10)).toBe(0);
    expect(rowMove('ArrowDown', 49, 50, 10)).toBe(49);
    expect(rowMove('PageDown', 45, 50, 10)).toBe(49);
    expect(rowMove('PageUp', 5, 50, 10)).toBe(0);
    expect(rowMove('Home', 30, 50, 10)).toBe(0);
    expect(rowMove('End', 3, 50, 10)).toBe(49);
  });

  it('leaves other keys and empty tables alone', () => {
    expect(rowMove('Tab', 3, 50, 10)).toBeNull();
    expect(rowMove('a', 3, 50, 10)).toBeNull();
    expect(rowMove('ArrowDown', 0, 0, 10)).toBeNull();
  });
});
