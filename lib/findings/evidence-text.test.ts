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

  it('leaves out null and empty values, never 0 or false', () => {
    expect(evidencePairs({ decodeError: null, note: '', readyAt: 0, ok: false }).shown).toEqual([
      ['readyAt', '0'],
      ['ok', 'false'],
    ]);
  });

  it('counts what the limit leaves out, null and empty values not included', () => {
    const r = evidencePairs({ a: 1, b: '', c: 3, d: 4, e: null, f: 'x' }, 2);
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
