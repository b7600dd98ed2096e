/**
 * Tables as istioctl prints them: Go's text/tabwriter, left-aligned, every column but the last
 * padded to its widest cell plus the writer's padding (5 in istioctl). A header names the
 * columns (some names hold one space: `SERVICE FQDN`, `OUTLIER CHECK`); each value starts at
 * its column's offset, and a value may hold a space too (`NOT SENT`, `SYNCED (5m2s)`): a word
 * belongs to the last column starting at or before it. A table ends at a blank line.
 */

export interface PrintedColumn {
  name: string;
  /** Offset in the line where the column starts. */
  at: number;
}

export interface PrintedRow {
  /** 1-based line number. */
  line: number;
  cells: Map<string, string>;
}

/** Column names of a header, with their offsets; two words one space apart are one name when `joined` lists it. */
export function printedColumns(header: string, joined: readonly string[]): PrintedColumn[] {
  const out: PrintedColumn[] = [];
  const words = [...header.matchAll(/\S+/g)];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as RegExpMatchArray;
    const at = w.index ?? 0;
    const next = words[i + 1];
    const two = next && next.index === at + w[0].length + 1 ? `${w[0]} ${next[0]}` : '';
    if (two !== '' && joined.includes(two)) {
      out.push({ name: two, at });
      i++;
    } else out.push({ name: w[0], at });
  }
  return out;
}

/** The rows after a header, up to a blank line or the end. */
export function printedRows(
  lines: readonly string[],
  from: number,
  cols: readonly PrintedColumn[],
): PrintedRow[] {
  const out: PrintedRow[] = [];
  for (let i = from; i < lines.length; i++) {
    const text = (lines[i] as string).replace(/\s+$/, '');
    if (text === '') break;
    const cells = new Map<string, string>();
    for (const m of text.matchAll(/\S+/g)) {
      let col = cols[0];
      for (const c of cols) if (c.at <= (m.index ?? 0)) col = c;
      if (col) {
        const had = cells.get(col.name);
        cells.set(col.name, had === undefined ? m[0] : `${had} ${m[0]}`);
      }
    }
    out.push({ line: i + 1, cells });
  }
  return out;
}
