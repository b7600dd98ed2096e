/**
 * A pod's log from the archive's `istio-proxy.log`, as pods/log answers it. istioctl keeps a
 * restarted container's previous log in the same file: a header line
 * `========= Previous log present (appended at the end) =========`, the current log, then
 * `========= Previous log =========` and the previous one (tools/bug-report/pkg/content). The
 * log covers only the window istioctl was given, and may have been cut by it.
 */

/**
 * When a line of the log was written, as near as the line says: the kubelet's own time is not
 * kept (istioctl reads logs without --timestamps), so the line's leading RFC 3339 time (Istio's
 * agent and Envoy's own log), else an access record's start (`[2026-...]` in Envoy's default
 * text format, `"start_time"` in its JSON one). Null: the line carries no time.
 */
function lineTime(line: string): number | null {
  const m =
    /^(\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(line) ??
    /^\[(\d{4}-\d\d-\d\dT[\d:.]+Z)\]/.exec(line) ??
    /^\{.*?"start_time":"(\d{4}-\d\d-\d\dT[\d:.]+Z)"/.exec(line);
  const t = m?.[1] ? Date.parse(m[1]) : NaN;
  return Number.isNaN(t) ? null : t;
}

/** `tailLines`, `sinceTime` (by the time each line, or the entry it continues, prints) and `limitBytes`. */
export function logSlice(text: string, q: URLSearchParams): string {
  let lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const since = q.get('sinceTime');
  if (since) {
    const t = Date.parse(since);
    if (!Number.isNaN(t)) {
      // a line without a time continues the entry before it (the agent's multi-line mesh
      // config): it goes with that entry; one before any timed line is kept
      let entry: number | null = null;
      lines = lines.filter((l) => {
        entry = lineTime(l) ?? entry;
        return entry === null || entry >= t;
      });
    }
  }
  const tail = q.get('tailLines');
  if (tail && /^\d+$/.test(tail)) lines = lines.slice(Math.max(0, lines.length - Number(tail)));
  let out = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  const limit = q.get('limitBytes');
  if (limit && /^\d+$/.test(limit))
    out = Buffer.from(out).subarray(0, Number(limit)).toString('utf8');
  return out;
}
