import { describe, expect, it } from 'vitest';
import { harmRank, worstSeverity } from './harm';
import type { Verdict } from './types';

const row = (verdicts: Verdict[], restarts = 0) => ({ verdicts, restarts });

describe('harmRank and worstSeverity', () => {
  it('puts the races that broke the app first, benign races after shutdown problems', () => {
    const rows = [
      row(['classic-ok']),
      row(['race']),
      row(['race', 'drain-too-short']),
      row(['race'], 2),
      row(['race-restart']),
      row(['unknown']),
      row([]),
    ];
    const sorted = [...rows].sort((a, b) => harmRank(a) - harmRank(b));
    expect(
      sorted.map((r) => `${r.verdicts.join('+')}${r.restarts ? `/${r.restarts}` : ''}`),
    ).toEqual([
      'race-restart',
      'race/2',
      'race+drain-too-short',
      'race',
      'unknown',
      'classic-ok',
      '',
    ]);
  });

  it('takes the catalog severity; a race whose app restarted is an error', () => {
    expect(worstSeverity(row(['race']))).toBe('warning');
    expect(worstSeverity(row(['race'], 1))).toBe('error');
    expect(worstSeverity(row(['held-ok', 'grace-exceeded']))).toBe('warning');
    expect(worstSeverity(row(['race-restart', 'native-ok']))).toBe('error');
    expect(worstSeverity(row(['native-ok']))).toBe('info');
    expect(worstSeverity(row([]))).toBe('info');
  });
});
