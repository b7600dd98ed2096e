import { describe, expect, it } from 'vitest';
import { sortRows } from './sort-rows';

// Scoping's ranking of the demo: waste = clusters today - minimum (null: no workload observed)
const rows = [
  { name: 'race-lab', waste: 1224 },
  { name: 'ads-1', waste: 216 },
  { name: 'istio-system', waste: null },
  { name: 'shop', waste: 216 },
  { name: 'ports', waste: 0 },
];

describe('sortRows', () => {
  it('orders numbers by value either way, equal values in the order they came', () => {
    expect(sortRows(rows, (r) => r.waste, 'asc').map((r) => r.name)).toEqual([
      'ports',
      'ads-1',
      'shop',
      'race-lab',
      'istio-system',
    ]);
    expect(sortRows(rows, (r) => r.waste, 'desc').map((r) => r.name)).toEqual([
      'race-lab',
      'ads-1',
      'shop',
      'ports',
      'istio-system',
    ]);
  });

  it('orders text by locale and puts an unknown last both ways, leaving the input alone', () => {
    const asc = sortRows(rows, (r) => r.name, 'asc').map((r) => r.name);
    expect(asc).toEqual(['ads-1', 'istio-system', 'ports', 'race-lab', 'shop']);
    expect(sortRows(rows, (r) => r.name, 'desc').map((r) => r.name)).toEqual([...asc].reverse());
    expect(rows[0]?.name).toBe('race-lab');
  });
});
