import { describe, expect, it } from 'vitest';
import { listEndsAfter, listEtaMs } from './list-eta';

describe('a paged list projected to its end', () => {
  it('cannot be projected before it starts, before its first page, or without a remaining count', () => {
    expect(listEtaMs({ objects: 0, remaining: null, startedAt: null }, 1_000)).toBeNull();
    expect(listEtaMs({ objects: 0, remaining: 49_500, startedAt: 0 }, 1_000)).toBeNull();
    expect(listEtaMs({ objects: 500, remaining: null, startedAt: 0 }, 1_000)).toBeNull();
    expect(listEndsAfter({ objects: 500, remaining: null, startedAt: 0 }, 1_000, 1_500)).toBe(
      false,
    );
  });

  it('projects the rest at the pace of the pages read so far', () => {
    // 50,000 pods in pages of 500: the first page in 400 ms leaves 49,500 for about 40 s
    expect(listEtaMs({ objects: 500, remaining: 49_500, startedAt: 10_000 }, 10_400)).toBe(39_600);
    expect(
      listEndsAfter({ objects: 500, remaining: 49_500, startedAt: 10_000 }, 10_400, 12_000),
    ).toBe(true);
    // 1,000 pods, half read in 100 ms: done well within a 2 s wait
    expect(listEtaMs({ objects: 500, remaining: 500, startedAt: 0 }, 100)).toBe(100);
    expect(listEndsAfter({ objects: 500, remaining: 500, startedAt: 0 }, 100, 2_000)).toBe(false);
  });

  it('is at its end when nothing remains', () => {
    expect(listEtaMs({ objects: 500, remaining: 0, startedAt: 0 }, 100)).toBe(0);
  });

  it('reads a page that came in the same millisecond as the start as one millisecond', () => {
    expect(listEtaMs({ objects: 500, remaining: 1_000, startedAt: 5 }, 5)).toBe(2);
  });
});
