/**
 * Turns a pod's Gantt model into recharts data: one row per container, its segments as a stack
 * of (transparent gap, coloured segment) pairs on a seconds axis from the chart's start, and
 * markers placed on that axis. Pure: no React.
 */
import type { GanttMarkerView, PodGanttView } from './api';

export interface ChartRow {
  label: string;
  /** The container's role (init, app, proxy); not `role`: Recharts writes a row's fields onto
   * its bars' SVG paths, where `role` is an ARIA role. */
  containerRole: string;
  /** g<i>: gap before segment i, s<i>: its length, k<i>: its kind, l<i>: its label (seconds). */
  [key: string]: string | number;
}

export interface ChartMarker extends GanttMarkerView {
  x: number;
  /** Row label the marker sits on, or null for a pod-wide line. */
  row: string | null;
}

export interface GanttChartData {
  t0: number;
  span: number;
  rows: ChartRow[];
  segments: number;
  markers: ChartMarker[];
}

const ms = (iso: string | null | undefined): number | null => {
  if (!iso) return null;
  const v = Date.parse(iso);
  return Number.isNaN(v) ? null : v;
};

export function ganttChartData(g: PodGanttView): GanttChartData {
  const t0 = ms(g.start) ?? 0;
  const end = ms(g.end) ?? t0;
  const span = Math.max((end - t0) / 1000, 1);
  const minWidth = span * 0.004;
  const labels = new Set(g.rows.map((r) => r.container));
  let segments = 0;
  const rows: ChartRow[] = g.rows.map((r) => {
    const row: ChartRow = { label: r.container, containerRole: r.role };
    const segs = r.segments
      .map((s) => ({ s, from: ms(s.from), to: s.to === null ? end : ms(s.to) }))
      .filter((x): x is typeof x & { from: number } => x.from !== null)
      .sort((a, b) => a.from - b.from);
    let cursor = 0;
    segs.forEach((x, i) => {
      const from = Math.max((x.from - t0) / 1000, cursor);
      const to = Math.max((x.to ?? x.from) - t0, 0) / 1000;
      const width = Math.max(to - from, minWidth);
      row[`g${i}`] = from - cursor;
      row[`s${i}`] = width;
      row[`k${i}`] = x.s.kind;
      row[`l${i}`] = x.s.label;
      cursor = from + width;
    });
    segments = Math.max(segments, segs.length);
    return row;
  });
  const markers: ChartMarker[] = g.markers
    .map((m) => {
      const t = ms(m.time);
      return t === null
        ? null
        : {
            ...m,
            x: (t - t0) / 1000,
            row: m.container && labels.has(m.container) ? m.container : null,
          };
    })
    .filter((m): m is ChartMarker => m !== null);
  return { t0, span, rows, segments, markers };
}

export const SEGMENT_COLOR: Record<string, string> = {
  waiting: '#cbd5e1',
  running: '#38bdf8',
  terminated: '#f87171',
  restart: '#fbbf24',
};

export const MARKER_COLOR: Record<string, string> = {
  scheduled: '#64748b',
  initialized: '#64748b',
  'containers-ready': '#0d9488',
  ready: '#059669',
  'proxy-ready': '#7c3aed',
  created: '#94a3b8',
  'container-ready': '#10b981',
  'post-start': '#0284c7',
  'pre-stop': '#a16207',
  'probe-failed': '#dc2626',
  'hook-failed': '#ea580c',
  killing: '#b91c1c',
  deletion: '#111827',
  'grace-end': '#6b7280',
};
