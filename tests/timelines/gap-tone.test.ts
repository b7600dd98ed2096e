import { describe, expect, it } from 'vitest';
import { gapData, gapTone } from '../../components/timeline/gap-data';

describe('the startup gap chart colours what the verdicts say', () => {
  it('a negative gap is red only where pods raced; held pods are not drawn like a race', () => {
    expect(gapTone(-2000, { race: 3, 'classic-ok': 1 })).toBe('race');
    expect(gapTone(-2000, { 'race-restart': 1 })).toBe('race');
    expect(gapTone(-1500, { 'held-ok': 4 })).toBe('held');
    expect(gapTone(-1500, { 'native-ok': 9, race: 0 })).toBe('held');
    expect(gapTone(0, { race: 2 })).toBe('ok');
  });

  it('gives each workload of the chart its tone', () => {
    const w = (name: string, minMs: number, verdicts: Record<string, number>) => ({
      namespace: 'shop',
      kind: 'Deployment',
      name,
      pods: 2,
      measured: 2,
      minMs,
      medianMs: minMs,
      maxMs: minMs + 500,
      verdicts,
    });
    const d = gapData([w('held', -1200, { 'held-ok': 2 }), w('racing', -3000, { race: 2 })], 10);
    expect(d.map((x) => [x.label, x.tone])).toEqual([
      ['shop/racing', 'race'],
      ['shop/held', 'held'],
    ]);
  });
});
