import type { Attribution } from './attribution';

/** What `meshdx attribute --json` prints of one attribution. */
export function attributionView(a: Attribution) {
  return {
    line: a.line,
    time: a.time,
    code: a.code,
    flags: a.flags,
    upstream: a.upstream,
    pod: a.pod,
    state: a.state,
    afterTerminationMs: a.afterTerminationMs,
  };
}

/**
 * One attribution as it appears inside the report's "attributions" array (indented as
 * JSON.stringify(report, null, 2) indents it). Kept as text, a flat string, so that a long
 * run holds a few hundred bytes per failing request rather than its objects.
 */
export function attributionJsonItem(a: Attribution): string {
  // split/join gives one flat string; a regex replace here kept ~5x the text alive (V8)
  return `    ${JSON.stringify(attributionView(a), null, 2).split('\n').join('\n    ')}`;
}

/**
 * The whole report, byte for byte what JSON.stringify({...head, attributions}, null, 2)
 * prints, from the head fields and the items made by attributionJsonItem, in order.
 */
export function assembleReport(head: Record<string, unknown>, items: readonly string[]): string {
  const empty = JSON.stringify({ ...head, attributions: [] }, null, 2);
  if (items.length === 0) return `${empty}\n`;
  const tail = '"attributions": []\n}';
  if (!empty.endsWith(tail)) throw new Error('report head must not have an attributions field');
  return `${empty.slice(0, -tail.length)}"attributions": [\n${items.join(',\n')}\n  ]\n}\n`;
}
