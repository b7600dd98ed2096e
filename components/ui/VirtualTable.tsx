'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, type ReactNode } from 'react';

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
}

const ROW_HEIGHT = 34;

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
}: Props<T>) {
  const parent = useRef<HTMLDivElement>(null);
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
  const virtual = useVirtualizer({
    count: sorted.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const grid = columns.map((c) => c.width).join(' ');
  const bodyHeight = Math.min(height, Math.max(ROW_HEIGHT, sorted.length * ROW_HEIGHT));

  return (
    <div
      className="overflow-hidden rounded-md border border-slate-200 bg-white text-sm"
      data-testid={testId}
      role="table"
      aria-rowcount={sorted.length}
    >
      <div
        className="grid border-b border-slate-200 bg-slate-100 font-medium text-slate-600"
        style={{ gridTemplateColumns: grid }}
        role="row"
      >
        {columns.map((c) => {
          const active = sort === c.key;
          return (
            <div
              key={c.key}
              role="columnheader"
              aria-sort={
                c.sortValue && onSort
                  ? active
                    ? dir === 'asc'
                      ? 'ascending'
                      : 'descending'
                    : 'none'
                  : undefined
              }
              className={`truncate px-2 py-1.5 ${c.align === 'right' ? 'text-right' : ''}`}
            >
              {c.sortValue && onSort ? (
                <button
                  type="button"
                  className="hover:text-slate-900"
                  onClick={() => onSort(c.key, active && dir === 'asc' ? 'desc' : 'asc')}
                >
                  {c.header}
                  {active ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                </button>
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
          tabIndex={0}
          role="rowgroup"
          aria-label="Table rows, scrollable"
        >
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {virtual.getVirtualItems().map((vi) => {
              const row = sorted[vi.index] as T;
              const key = rowKey(row);
              const selected = key === selectedKey;
              return (
                <div
                  key={key}
                  role="row"
                  data-row-key={key}
                  aria-selected={selected || undefined}
                  onClick={onSelect ? () => onSelect(row) : undefined}
                  tabIndex={onSelect ? 0 : undefined}
                  onKeyDown={
                    onSelect
                      ? (e) => {
                          if (e.key === 'Enter' || e.key === ' ') {
                            e.preventDefault();
                            onSelect(row);
                          }
                        }
                      : undefined
                  }
                  className={`absolute left-0 right-0 grid items-center border-b border-slate-100 ${onSelect ? 'cursor-pointer hover:bg-sky-50' : ''} ${selected ? 'bg-sky-100' : ''}`}
                  style={{
                    gridTemplateColumns: grid,
                    height: ROW_HEIGHT,
                    transform: `translateY(${vi.start}px)`,
                  }}
                >
                  {columns.map((c) => (
                    <div
                      key={c.key}
                      role="cell"
                      className={`truncate px-2 ${c.align === 'right' ? 'text-right tabular-nums' : ''}`}
                    >
                      {c.render(row)}
                    </div>
                  ))}
                </div>
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
