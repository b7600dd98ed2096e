/**
 * A pod's log from the archive's `istio-proxy.log`, as pods/log answers it. istioctl keeps a
 * restarted container's previous log in the same file: a header line
 * `========= Previous log present (appended at the end) =========`, the current log, then
 * `========= Previous log =========` and the previous one (tools/bug-report/pkg/content). The
 * log covers only the window istioctl was given, and may have been cut by it.
 */

/** `tailLines`, `sinceTime` (by each line's leading RFC 3339 time when it has one) and `limitBytes`. */
export function logSlice(text: string, q: URLSearchParams): string {
  let lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const since = q.get('sinceTime');
  if (since) {
    const t = Date.parse(since);
    if (!Number.isNaN(t))
      lines = lines.filter((l) => {
        const m = /^(\d{4}-\d\d-\d\dT[\d:.]+Z)/.exec(l);
        return !m?.[1] || Date.parse(m[1]) >= t;
      });
  }
  const tail = q.get('tailLines');
  if (tail && /^\d+$/.test(tail)) lines = lines.slice(Math.max(0, lines.length - Number(tail)));
  let out = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  const limit = q.get('limitBytes');
  if (limit && /^\d+$/.test(limit))
    out = Buffer.from(out).subarray(0, Number(limit)).toString('utf8');
  return out;
}
