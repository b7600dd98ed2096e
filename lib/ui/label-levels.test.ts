import { describe, expect, it } from 'vitest';
import { labelLevels, labelWidth } from './label-levels';

describe('labelLevels', () => {
  it('puts "proxy ready (medium)" and "ready" a pixel apart on two rows', () => {
    const a = { x: 500, width: labelWidth('proxy ready (medium)', 10) };
    const b = { x: 512, width: labelWidth('ready', 10) };
    expect(labelLevels([a, b])).toEqual({ levels: [0, 1], rows: 2 });
  });

  it('keeps labels that are far apart on the first row, and reuses a freed row', () => {
    const w = labelWidth('scheduled', 10);
    const out = labelLevels([
      { x: 100, width: w },
      { x: 110, width: w },
      { x: 400, width: w },
      { x: 130, width: w },
    ]);
    expect(out.levels).toEqual([0, 1, 0, 2]);
    expect(out.rows).toBe(3);
  });

  it('never lets two labels of one row overlap', () => {
    const labels = Array.from({ length: 40 }, (_, i) => ({ x: (i * 37) % 300, width: 60 }));
    const { levels } = labelLevels(labels);
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        if (levels[i] !== levels[j]) continue;
        const a = labels[i];
        const b = labels[j];
        expect(Math.abs((a?.x ?? 0) - (b?.x ?? 0))).toBeGreaterThanOrEqual(60 + 4);
      }
    expect(labelLevels([])).toEqual({ levels: [], rows: 0 });
  });
});
