/**
 * The `kubectl get events -A -o wide` table's format, one definition for what writes it
 * (`meshdx gather`, lib/gather) and what reads it (bug-report archives, lib/archive): its columns
 * in kubectl's order (kubernetes/kubernetes pkg/printers/internalversion printEvent) and its
 * ages, apimachinery's HumanDuration, printed and read back.
 */

/** The columns with `-A` and `-o wide`, in kubectl's order. */
export const EVENTS_TABLE_COLUMNS = [
  'NAMESPACE',
  'LAST SEEN',
  'TYPE',
  'REASON',
  'OBJECT',
  'SUBOBJECT',
  'SOURCE',
  'MESSAGE',
  'FIRST SEEN',
  'COUNT',
  'NAME',
] as const;

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

/** Kubernetes' HumanDuration: `45s`, `3m2s`, `59m`, `2h5m`, `5h`, `3d4h`, `40d`, `2y10d`. */
export function humanDuration(ms: number): string {
  if (ms < -S) return '<invalid>';
  if (ms < 0) return '0s';
  const s = Math.floor(ms / S);
  if (s < 120) return `${s}s`;
  const m = Math.floor(ms / MIN);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 3 * 60) return `${m}m`;
  const h = Math.floor(ms / HOUR);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 8 * 24)
    return h % 24 === 0 ? `${Math.floor(h / 24)}d` : `${Math.floor(h / 24)}d${h % 24}h`;
  const d = Math.floor(ms / DAY);
  if (ms < 2 * YEAR) return `${d}d`;
  const y = Math.floor(ms / YEAR);
  if (ms < 8 * YEAR) return d % 365 === 0 ? `${y}y` : `${y}y${d % 365}d`;
  return `${y}y`;
}

/** kubectl's HumanDuration (`45s`, `2m30s`, `5h`, `3d4h`, `2y10d`) in ms, or null. */
export function humanAgeMs(text: string): number | null {
  const m = /^(?:(\d+)y)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  if (!m || text.trim() === '') return null;
  const [y = 0, d = 0, h = 0, min = 0, s = 0] = m.slice(1).map((x) => (x ? Number(x) : 0));
  return ((((y * 365 + d) * 24 + h) * 60 + min) * 60 + s) * 1000;
}
