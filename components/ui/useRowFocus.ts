'use client';

import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { rowMove } from '../../lib/ui/row-keys';

/**
 * A table as one Tab stop (roving tabindex), the one keyboard model of every table: the active
 * row (the selected one at first) is the table's only Tab stop; Up/Down, PageUp/PageDown,
 * Home/End move it, Enter or Space opens it. Each row carries `data-row-index` inside
 * `container`; the table's rows call `onFocusRow` when they get the focus (a click, a Tab).
 */
export interface RowFocus {
  /** The index of the row that is the Tab stop. */
  active: number;
  onKeyDown: (e: KeyboardEvent<HTMLElement>) => void;
  onFocusRow: (index: number) => void;
  /** What row `index` of a table that renders every row carries. */
  rowProps: (index: number) => {
    tabIndex: number;
    'data-row-index': number;
    'aria-rowindex': number;
    onFocus: () => void;
  };
}

/** The focus ring of a row that is the table's Tab stop (an outline: a row draws no ring). */
export const ROW_FOCUS_CLASS =
  'outline-none focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sky-700';

export function useRowFocus({
  count,
  selectedIndex,
  page,
  container,
  onOpen,
  onMove,
  untabControls = false,
}: {
  count: number;
  /** The selected row's index, -1 for none: the Tab stop until a row is moved to. */
  selectedIndex: number;
  /** Rows PageUp/PageDown move by. */
  page: number;
  container: RefObject<HTMLElement | null>;
  /** Enter or Space on a row; without it the rows only move (nothing opens). */
  onOpen?: (index: number) => void;
  /** Before the focus moves to `index` (a virtual table scrolls the row into being). */
  onMove?: (index: number) => void;
  /**
   * Take the links and buttons of every row in `container` out of the Tab order after each
   * render (a table that renders all its rows; a virtual one does it per row).
   */
  untabControls?: boolean;
}): RowFocus {
  const [activeRaw, setActive] = useState<number | null>(null);
  const active = Math.min(
    Math.max(0, activeRaw ?? (selectedIndex >= 0 ? selectedIndex : 0)),
    Math.max(0, count - 1),
  );
  const focusWanted = useRef(false);
  const focusRow = useCallback(
    (i: number) =>
      container.current?.querySelector<HTMLElement>(`[data-row-index="${i}"]`)?.focus(),
    [container],
  );
  useEffect(() => {
    if (!focusWanted.current) return;
    focusWanted.current = false;
    focusRow(active);
  }, [active, focusRow]);
  useLayoutEffect(() => {
    if (!untabControls) return;
    for (const row of container.current?.querySelectorAll<HTMLElement>('[data-row-index]') ?? [])
      untabRowControls(row);
  });
  const onFocusRow = useCallback((i: number) => setActive(i), []);
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // keys on a control inside a row (a link, a summary) are the control's own
    const onRow = e.target instanceof HTMLElement && e.target.dataset.rowIndex !== undefined;
    if (e.key === 'Enter' || e.key === ' ') {
      if (!onOpen || !onRow || active >= count) return;
      e.preventDefault();
      onOpen(active);
      return;
    }
    const next = rowMove(e.key, active, count, page);
    if (next === null) return;
    e.preventDefault();
    focusWanted.current = true;
    onMove?.(next);
    if (next === active) {
      focusWanted.current = false;
      focusRow(next);
    } else setActive(next);
  };
  const rowProps = (index: number) => ({
    tabIndex: index === active ? 0 : -1,
    'data-row-index': index,
    // the header row is row 1
    'aria-rowindex': index + 2,
    onFocus: () => setActive(index),
  });
  return { active, onKeyDown, onFocusRow, rowProps };
}

/**
 * Takes a row's links and buttons out of the Tab order: the row is the table's Tab stop and
 * Enter opens it (its detail has the same links); a pointer still reaches them.
 */
export function untabRowControls(row: HTMLElement | null): void {
  for (const el of row?.querySelectorAll<HTMLElement>('a[href], button, summary') ?? [])
    el.tabIndex = -1;
}
