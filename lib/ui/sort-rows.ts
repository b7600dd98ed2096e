/**
 * Rows in a column's order, for a table sorted by a header: numbers by value, text by its
 * locale order; a value nobody knows (null) sorts last either way, and equal values keep the
 * order they came in (the table's default ranking).
 */
export function sortRows<T>(
  rows: readonly T[],
  value: (row: T) => number | string | null,
  dir: 'asc' | 'desc',
): T[] {
  const sign = dir === 'asc' ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: value(row) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) {
        if (a.v === b.v) return a.i - b.i;
        return a.v === null ? 1 : -1;
      }
      const r =
        typeof a.v === 'number' && typeof b.v === 'number'
          ? a.v - b.v
          : String(a.v).localeCompare(String(b.v));
      return sign * r || a.i - b.i;
    })
    .map((x) => x.row);
}
