import { describe, expect, it } from 'vitest';
import { evidencePairs } from './evidence-text';

describe('evidencePairs', () => {
  it('keeps the evidence order and writes each value as text', () => {
    expect(evidencePairs({ port: 80, protocols: 'HTTP,TCP', mtls: true })).toEqual({
      shown: [
        ['port', '80'],
        ['protocols', 'HTTP,TCP'],
        ['mtls', 'true'],
      ],
      more: 0,
    });
  });

  it('says unknown for a null value and leaves an empty string out', () => {
    expect(evidencePairs({ gapMs: null, note: '', readyAt: 0 }).shown).toEqual([
      ['gapMs', 'unknown'],
      ['readyAt', '0'],
    ]);
  });

  it('counts what the limit leaves out, empty strings not included', () => {
    const r = evidencePairs({ a: 1, b: '', c: 3, d: 4, e: null }, 2);
    expect(r.shown).toEqual([
      ['a', '1'],
      ['c', '3'],
    ]);
    expect(r.more).toBe(2);
  });

  it('gives nothing for empty evidence', () => {
    expect(evidencePairs({})).toEqual({ shown: [], more: 0 });
  });
});
