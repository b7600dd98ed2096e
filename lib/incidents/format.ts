/** Durations and times as the Incidents view prints them (pure, shared by UI and tests). */

/** 850 ms, 4.2 s, 3 min 5 s, 2 h 10 min. */
export function fmtDuration(ms: number): string {
  const abs = Math.abs(ms);
  const sign = ms < 0 ? '-' : '';
  if (abs < 1000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${(abs / 1000).toFixed(abs < 10_000 ? 1 : 0)} s`;
  if (abs < 3_600_000) {
    const m = Math.floor(abs / 60_000);
    const s = Math.round((abs % 60_000) / 1000);
    return `${sign}${m} min${s ? ` ${s} s` : ''}`;
  }
  const h = Math.floor(abs / 3_600_000);
  const m = Math.round((abs % 3_600_000) / 60_000);
  return `${sign}${h} h${m ? ` ${m} min` : ''}`;
}

/** HH:MM:SS (UTC) of an ISO time, for axes and tables. */
export function clock(iso: string | number | null): string {
  if (iso === null) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '–' : d.toISOString().slice(11, 19);
}

/** How long after the pod was gone a request came: null unless it did. */
export function afterGone(requestIso: string | null, goneIso: string | null): number | null {
  if (!requestIso || !goneIso) return null;
  const d = Date.parse(requestIso) - Date.parse(goneIso);
  return Number.isFinite(d) && d >= 0 ? d : null;
}
