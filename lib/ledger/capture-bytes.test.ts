import { describe, it, expect } from 'vitest';
import { jsonBytes } from './capture-bytes';
import { UGLY_TIMES } from '../../tests/data/utc-time';

const enc = new TextEncoder();
const { readString, timeOf } = jsonBytes();

/** timeOf of one JSON string literal, read as the capture reader reads it. */
function timeOfLiteral(text: string): number | null {
  const b = enc.encode(JSON.stringify(text));
  const end = readString(b, 0, b.length);
  expect(end).toBe(b.length);
  return timeOf(b, 0, end);
}

describe('timeOf', () => {
  it('reads Kubernetes times as Date.parse does, and leaves other shapes to it', () => {
    for (const t of UGLY_TIMES) {
      const parsed = Date.parse(t);
      expect([t, timeOfLiteral(t)]).toEqual([t, Number.isNaN(parsed) ? null : parsed]);
    }
  });
});
