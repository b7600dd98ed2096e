/**
 * Where a key press moves the active row of a table with one Tab stop: Up/Down by one,
 * PageUp/PageDown by a page, Home/End to the ends. `null` for a key that does not move it.
 */
export function rowMove(key: string, active: number, count: number, page: number): number | null {
  if (count <= 0) return null;
  const last = count - 1;
  const clamp = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case 'ArrowDown':
      return clamp(active + 1);
    case 'ArrowUp':
      return clamp(active - 1);
    case 'PageDown':
      return clamp(active + page);
    case 'PageUp':
      return clamp(active - page);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}
