'use client';

import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { ariaSort, SortButton } from './SortHeader';
import { untabRowControls, useRowFocus } from './useRowFocus';
import { RowIsTabStop } from './row-tab-stop';
import { usePrinting } from './usePrinting';

export interface Column<T> {
  key: string;
  header: string;
  /** CSS grid track, e.g. '2fr' or '120px'. */
  width: string;
  render: (row: T) => ReactNode;
  sortValue?: (row: T) => string | number;
  align?: 'left' | 'right';
}

interface Props<T> {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  sort?: string;
  dir?: 'asc' | 'desc';
  onSort?: (key: string, dir: 'asc' | 'desc') => void;
  selectedKey?: string;
  onSelect?: (row: T) => void;
  height?: number;
  empty?: ReactNode;
  testId?: string;
  /** The table's accessible name. */
  label?: string;
}

const ROW_HEIGHT = 34;

interface RowProps<T> {
  row: T;
  rowKey: string;
  index: number;
  columns: Column<T>[];
  grid: string;
  start: number;
  selected: boolean;
  /** The table's one Tab stop (roving tabindex), when rows can be opened. */
  tabStop: boolean | null;
  onSelect?: (row: T) => void;
  onFocusRow: (index: number) => void;
}

/** One row: memoised, so moving the focus or scrolling re-renders only the rows that changed. */
function RowView<T>({
  row,
  rowKey,
  index,
  columns,
  grid,
  start,
  selected,
  tabStop,
  onSelect,
  onFocusRow,
}: RowProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  // the row is the table's Tab stop, not each link or button in it (Enter opens the row, whose
  // detail has the same links)
  useLayoutEffect(() => {
    if (tabStop !== null) untabRowControls(ref.current);
  }, [tabStop, row]);
  return (
    <div
      ref={ref}
      role="row"
      data-row-key={rowKey}
      data-row-index={index}
      aria-rowindex={index + 2}
      aria-selected={onSelect ? selected : undefined}
      onClick={onSelect ? () => onSelect(row) : undefined}
      onFocus={tabStop === null ? undefined : () => onFocusRow(index)}
      tabIndex={tabStop === null ? undefined : tabStop ? 0 : -1}
      className={`absolute left-0 right-0 grid items-center border-b border-slate-100 outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-700 ${onSelect ? 'cursor-pointer hover:bg-slate-50' : ''} ${selected ? 'bg-sky-100 text-slate-950 shadow-[inset_3px_0_0_var(--color-sky-700)] [&_.text-amber-700]:text-amber-900 [&_.text-amber-800]:text-amber-900 [&_.text-slate-400]:text-slate-600 [&_.text-slate-500]:text-slate-700 [&_.text-sky-700]:text-sky-900' : ''}`}
      style={{ gridTemplateColumns: grid, height: ROW_HEIGHT, transform: `translateY(${start}px)` }}
    >
      <RowIsTabStop.Provider value={tabStop !== null}>
        {columns.map((c) => (
          <div
            key={c.key}
            role="cell"
            className={`min-w-0 truncate px-2 ${c.align === 'right' ? 'text-right tabular-nums' : ''}`}
          >
            {c.render(row)}
          </div>
        ))}
      </RowIsTabStop.Provider>
    </div>
  );
}

const Row = memo(RowView) as typeof RowView;

/** A sortable table that renders only the rows in view, so 5,000 pods stay fast. */
export function VirtualTable<T>({
  rows,
  columns,
  rowKey,
  sort,
  dir = 'asc',
  onSort,
  selectedKey,
  onSelect,
  height = 560,
  empty,
  testId,
  label,
}: Props<T>) {
  const parent = useRef<HTMLDivElement>(null);
  const bodyHeight = Math.min(height, Math.max(ROW_HEIGHT, rows.length * ROW_HEIGHT));
  const sorted = useMemo(() => {
    const col = columns.find((c) => c.key === sort);
    if (!col?.sortValue) return rows;
    const sv = col.sortValue;
    const copy = [...rows];
    copy.sort((a, b) => {
      const x = sv(a);
      const y = sv(b);
      const r =
        typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return dir === 'asc' ? r : -r;
    });
    return copy;
  }, [rows, columns, sort, dir]);
  // one Tab stop per table: the active row (the selected one at first); the arrow keys move it
  const selectedIndex = useMemo(
    () => (selectedKey === undefined ? -1 : sorted.findIndex((r) => rowKey(r) === selectedKey)),
    [sorted, selectedKey, rowKey],
  );
  const page = Math.max(1, Math.floor(bodyHeight / ROW_HEIGHT) - 1);
  const { active, onKeyDown, onFocusRow } = useRowFocus({
    count: sorted.length,
    selectedIndex,
    page,
    container: parent,
    onOpen: onSelect
      ? (i) => {
          const row = sorted[i];
          if (row !== undefined) onSelect(row);
        }
      : undefined,
    // called on a key press, after `virtual` below is made
    onMove: (i) => virtual.scrollToIndex(i, { align: 'auto' }),
  });
  // the active row stays rendered (and so focusable) when it scrolls out of view
  const rangeExtractor = useCallback(
    (range: Range) => {
      const list = defaultRangeExtractor(range);
      return list.includes(active) || active >= range.count
        ? list
        : [...list, active].sort((a, b) => a - b);
    },
    [active],
  );
  const virtual = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    // the body's height before it is measured: the server renders the rows in view, so a table
    // whose data came with the page is on screen before its scripts run
    initialRect: { width: 0, height: bodyHeight },
    overscan: 8,
    rangeExtractor,
  });
  // on paper every row the table holds is printed, not the ones scrolled into view
  const printing = usePrinting();
  const grid = columns.map((c) => c.width).join(' ');

  return (
    <div
      className="overflow-hidden rounded-md border border-slate-200 bg-white text-sm"
      data-testid={testId}
      role="table"
      aria-rowcount={sorted.length + 1}
      aria-label={label}
    >
      <div
        className="grid border-b border-slate-200 bg-slate-100 font-medium text-slate-600"
        style={{ gridTemplateColumns: grid }}
        role="row"
        aria-rowindex={1}
      >
        {columns.map((c) => {
          const active = sort === c.key;
          return (
            <div
              key={c.key}
              role="columnheader"
              aria-sort={c.sortValue && onSort ? ariaSort(active, dir) : undefined}
              className={`min-w-0 px-2 py-1.5 leading-tight break-words ${c.align === 'right' ? 'text-right' : ''}`}
            >
              {c.sortValue && onSort ? (
                <SortButton
                  header={c.header}
                  active={active}
                  dir={dir}
                  onSort={(d) => onSort(c.key, d)}
                />
              ) : (
                c.header
              )}
            </div>
          );
        })}
      </div>
      {sorted.length === 0 ? (
        <div className="px-3 py-6 text-center text-slate-500">{empty ?? 'Nothing to show.'}</div>
      ) : (
        <div
          ref={parent}
          className="overflow-auto"
          style={{ height: bodyHeight }}
          // rows that open are focusable themselves (one of them at a time); otherwise the
          // scrolled region takes the focus so the arrow keys scroll it
          tabIndex={onSelect ? undefined : 0}
          role="rowgroup"
          data-virtual-body
          aria-label={onSelect ? undefined : 'Table rows, scrollable'}
          // without rows to open, the arrow keys scroll the region as the browser does
          onKeyDown={onSelect ? onKeyDown : undefined}
        >
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {(printing
              ? sorted.map((_, index) => ({ index, start: index * ROW_HEIGHT }))
              : virtual.getVirtualItems()
            ).map((vi) => {
              const row = sorted[vi.index] as T;
              const key = rowKey(row);
              return (
                <Row
                  key={key}
                  row={row}
                  rowKey={key}
                  index={vi.index}
                  columns={columns}
                  grid={grid}
                  start={vi.start}
                  selected={key === selectedKey}
                  tabStop={onSelect ? vi.index === active : null}
                  onSelect={onSelect}
                  onFocusRow={onFocusRow}
                />
              );
            })}
          </div>
        </div>
      )}
      <div className="border-t border-slate-100 bg-slate-50 px-2 py-1 text-xs text-slate-500">
        {sorted.length.toLocaleString('en-US')} rows
      </div>
    </div>
  );
}
