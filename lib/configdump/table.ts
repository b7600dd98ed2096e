import type { ClusterRow } from './types';

export const CLUSTER_TABLE_HEADER = [
  'SERVICE FQDN',
  'PORT',
  'SUBSET',
  'DIRECTION',
  'TYPE',
  'DESTINATION RULE',
] as const;

/** Width in characters as Go's tabwriter counts them (runes). */
function width(s: string): number {
  return [...s].length;
}

/**
 * Aligns cells like Go's text/tabwriter with minwidth 0, padding 5, pad char ' ' (the writer
 * istioctl uses): every column but the last is padded to its widest cell plus 5 spaces; the
 * last column is written as is, so rows with an empty last cell keep trailing spaces.
 */
export function tabulate(lines: readonly (readonly string[])[], padding = 5): string {
  const columns = Math.max(0, ...lines.map((l) => l.length));
  const widths: number[] = [];
  for (let c = 0; c < columns - 1; c++) {
    widths[c] = Math.max(0, ...lines.map((l) => (c < l.length - 1 ? width(l[c] ?? '') : 0)));
  }
  return lines
    .map((cells) =>
      cells
        .map((cell, c) =>
          c < cells.length - 1 ? cell + ' '.repeat((widths[c] ?? 0) + padding - width(cell)) : cell,
        )
        .join(''),
    )
    .map((line) => `${line}\n`)
    .join('');
}

export function clusterRowCells(row: ClusterRow): string[] {
  return [row.fqdn, String(row.port), row.subset, row.direction, row.type, row.destinationRule];
}

/** The text `istioctl proxy-config cluster` prints for these rows (rows already sorted). */
export function formatClusterTable(rows: readonly ClusterRow[]): string {
  return tabulate([[...CLUSTER_TABLE_HEADER], ...rows.map(clusterRowCells)]);
}
