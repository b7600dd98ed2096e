import { describe, expect, it } from 'vitest';
import { aliveDuring } from './window';

const pod = (startedAt: string | null, deletedAt: string | null = null) => ({
  startedAt,
  deletedAt,
});
const FROM = '2026-11-01T12:00:00Z';
const TO = '2026-11-01T12:10:00Z';

describe('aliveDuring', () => {
  it('keeps every pod without a window', () => {
    expect(aliveDuring(pod(null))).toBe(true);
    expect(aliveDuring(pod('2020-01-01T00:00:00Z', '2020-01-02T00:00:00Z'))).toBe(true);
  });

  it('keeps pods alive at some moment of the window', () => {
    expect(aliveDuring(pod('2026-11-01T11:00:00Z'), FROM, TO)).toBe(true); // started before, still up
    expect(aliveDuring(pod('2026-11-01T12:05:00Z'), FROM, TO)).toBe(true); // started inside
    expect(aliveDuring(pod('2026-11-01T11:00:00Z', '2026-11-01T12:01:00Z'), FROM, TO)).toBe(true);
    expect(aliveDuring(pod('2026-11-01T12:10:00Z'), FROM, TO)).toBe(true); // edges count
  });

  it('drops pods started after it or gone before it', () => {
    expect(aliveDuring(pod('2026-11-01T12:10:01Z'), FROM, TO)).toBe(false);
    expect(aliveDuring(pod('2026-11-01T11:00:00Z', '2026-11-01T11:59:59Z'), FROM, TO)).toBe(false);
  });

  it('takes half-open windows and ignores unreadable bounds', () => {
    expect(aliveDuring(pod('2026-11-01T13:00:00Z'), FROM)).toBe(true);
    expect(aliveDuring(pod('2026-11-01T13:00:00Z'), undefined, TO)).toBe(false);
    expect(aliveDuring(pod('2026-11-01T13:00:00Z'), 'yesterday', 'later')).toBe(true);
  });

  it('places a pod without a start time only by its deletion', () => {
    expect(aliveDuring(pod(null), FROM, TO)).toBe(true);
    expect(aliveDuring(pod(null, '2026-11-01T11:00:00Z'), FROM, TO)).toBe(false);
  });
});
