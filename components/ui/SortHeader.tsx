'use client';

/** How a column is sorted, as `aria-sort` says it: the sorted column its way, the others none. */
export function ariaSort(
  active: boolean,
  dir: 'asc' | 'desc',
): 'ascending' | 'descending' | 'none' {
  return active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none';
}

/**
 * A table's header cell: when the column sorts, its button and `aria-sort`; else its name.
 */
export function SortHeaderCell({
  header,
  sortable,
  active,
  dir,
  onSort,
  className,
}: {
  header: string;
  sortable: boolean;
  active: boolean;
  dir: 'asc' | 'desc';
  onSort: (dir: 'asc' | 'desc') => void;
  className?: string;
}) {
  return (
    <th className={className} aria-sort={sortable ? ariaSort(active, dir) : undefined}>
      {sortable ? <SortButton header={header} active={active} dir={dir} onSort={onSort} /> : header}
    </th>
  );
}

/**
 * A sortable column's header: a button that sorts by it (ascending first, then the other way),
 * its arrow saying the way. The header cell around it carries `ariaSort`.
 */
export function SortButton({
  header,
  active,
  dir,
  onSort,
}: {
  header: string;
  active: boolean;
  dir: 'asc' | 'desc';
  onSort: (dir: 'asc' | 'desc') => void;
}) {
  return (
    <button
      type="button"
      // a header in capitals keeps them (a button does not inherit text-transform)
      className="[text-transform:inherit] hover:text-slate-900"
      onClick={() => onSort(active && dir === 'asc' ? 'desc' : 'asc')}
    >
      {header}
      {active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
    </button>
  );
}
