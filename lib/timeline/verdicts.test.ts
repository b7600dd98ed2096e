import { describe, expect, it } from 'vitest';
import { VerdictSchema } from '../api/timelines';
import { TIMELINE_CATALOG } from './codes';
import { harmRank } from './harm';
import { VERDICT_NAMES, VERDICTS, isVerdict } from './verdicts';

describe('the verdicts, defined once', () => {
  it('the API schema, the catalog and the harm rank all follow the one table', () => {
    expect(VerdictSchema.options).toEqual(VERDICT_NAMES);
    for (const v of VERDICT_NAMES) {
      expect(TIMELINE_CATALOG[v]?.code, v).toMatch(/^MDX01\d\d$/);
      expect(harmRank({ verdicts: [v], restarts: 0 })).toBe(VERDICTS[v].rank);
    }
  });

  it('is listed worst first, and knows its own names', () => {
    const ranks = VERDICT_NAMES.map((v) => VERDICTS[v].rank);
    expect(ranks[0]).toBe(0);
    expect(Math.min(...ranks.slice(-3))).toBeGreaterThanOrEqual(6);
    expect(isVerdict('race')).toBe(true);
    expect(isVerdict('toString')).toBe(false);
  });
});
