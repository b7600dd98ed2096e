/** Shared display helpers for times and durations (no parsing of server strings beyond ISO). */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '–';
  const ms = now - Date.parse(iso);
  if (Number.isNaN(ms)) return '–';
  const s = Math.round(ms / 1000);
  if (s < 90) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}

export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? '–'
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}
