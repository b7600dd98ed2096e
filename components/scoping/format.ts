/** Small display helpers for the Scoping view. */
export const num = (n: number | null | undefined): string =>
  n === null || n === undefined ? '–' : n.toLocaleString('en-US');

export const pct = (part: number, whole: number): string =>
  whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–';

export function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '–';
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  return `${s.toFixed(s < 10 ? 1 : 0)} s`;
}

export function duration(totalSeconds: number): string {
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  return h > 0 ? `${h} h ${m} min` : `${m} min`;
}

const SOURCE_LABEL: Record<string, string> = {
  'envoy-stats': 'Envoy stats',
  'access-log': 'access logs',
  prometheus: 'Prometheus',
};
export const sourceLabel = (s: string): string => SOURCE_LABEL[s] ?? s;
