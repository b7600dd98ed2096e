/** A label drawn centred on `x` (pixels), `width` pixels wide. */
export interface PlacedLabel {
  x: number;
  width: number;
}

/**
 * The row (0 = nearest the axis) each label goes on so that no two labels on one row overlap:
 * left to right, each takes the lowest row whose last label ends `gap` pixels before it starts.
 * Returns the rows in the input's order, and how many rows were used.
 */
export function labelLevels(
  labels: readonly PlacedLabel[],
  gap = 4,
): { levels: number[]; rows: number } {
  const order = labels.map((_, i) => i).sort((a, b) => (labels[a]?.x ?? 0) - (labels[b]?.x ?? 0));
  const rowEnds: number[] = [];
  const levels = new Array<number>(labels.length).fill(0);
  for (const i of order) {
    const l = labels[i];
    if (!l) continue;
    const start = l.x - l.width / 2;
    let row = rowEnds.findIndex((end) => end + gap <= start);
    if (row < 0) {
      row = rowEnds.length;
      rowEnds.push(0);
    }
    rowEnds[row] = l.x + l.width / 2;
    levels[i] = row;
  }
  return { levels, rows: rowEnds.length };
}

/** A label's width in pixels at `fontSize`, from its length (sans-serif, about 0.56 em a glyph). */
export function labelWidth(text: string, fontSize: number): number {
  return Math.ceil(text.length * fontSize * 0.56) + 2;
}
