import { describe, it, expect } from 'vitest';
import { readString, timeOf, utcMs } from './capture-bytes';

const enc = new TextEncoder();

/** timeOf of one JSON string literal, read as the capture reader reads it. */
function timeOfLiteral(text: string): number | null {
  const b = enc.encode(JSON.stringify(text));
  const end = readString(b, 0, b.length);
  expect(end).toBe(b.length);
  return timeOf(b, 0, end);
}

describe('utcMs', () => {
  it('is Date.UTC for every day of every month over years 1000..9999, rollover days included', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (let y = 1000; y <= 9999; y += y < 1900 || y > 2100 ? 13 : 1)
      for (let mo = 1; mo <= 12; mo++)
        for (let d = 1; d <= 31; d++) {
          const h = (y + d) % 24;
          const mi = (mo * 7 + d) % 60;
          const s = (y * 3 + d) % 60;
          const ms = (y * d) % 1000;
          if (utcMs(y, mo, d, h, mi, s, ms) !== Date.UTC(y, mo - 1, d, h, mi, s, ms))
            wrong.push(`${y}-${mo}-${d}`);
          checked++;
        }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(100_000);
  });
});

describe('timeOf', () => {
  it('reads Kubernetes times as Date.parse does, and leaves other shapes to it', () => {
    for (const t of [
      '2024-06-01T10:00:00Z',
      '2024-06-01T10:00:00.5Z',
      '2024-06-01T10:00:00.25Z',
      '2024-06-01T10:00:00.123456789Z',
      '2024-02-29T23:59:59Z',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '1999-12-31T23:59:59.999Z',
      '2024-06-01T10:00:00+02:00',
      '2024-06-01 10:00:00Z',
      '2024-13-01T00:00:00Z',
      'yesterday',
    ]) {
      const parsed = Date.parse(t);
      expect([t, timeOfLiteral(t)]).toEqual([t, Number.isNaN(parsed) ? null : parsed]);
    }
  });
});
