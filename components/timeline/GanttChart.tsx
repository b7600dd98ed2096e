'use client';

import { useMemo } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ReferenceDot,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { PodGanttView } from './api';
import { labelLevels, labelWidth } from '../../lib/ui/label-levels';
import { ganttChartData, MARKER_COLOR, SEGMENT_COLOR, type ChartRow } from './gantt-data';

const LINE_KINDS: ReadonlySet<string> = new Set([
  'ready',
  'proxy-ready',
  'deletion',
  'grace-end',
  'scheduled',
]);
const ROW_PX = 38;
const LABEL_PX = 10;
const LABEL_ROW_PX = 12;
const MARGIN = { right: 40, bottom: 8, left: 10 };
const Y_AXIS_PX = 130;

const lineText = (m: { kind: string; confidence?: string }) =>
  m.kind === 'proxy-ready' ? `proxy ready (${m.confidence})` : m.kind;

function SegmentTooltip({
  active,
  payload,
}: {
  active?: boolean;
  payload?: readonly { dataKey?: unknown; payload?: ChartRow }[];
}) {
  const p = payload?.find((x) => typeof x.dataKey === 'string' && x.dataKey.startsWith('s'));
  if (!active || !p?.payload || typeof p.dataKey !== 'string') return null;
  const i = p.dataKey.slice(1);
  return (
    <div className="rounded border border-slate-200 bg-white px-2 py-1 text-xs shadow">
      <div className="font-mono">{p.payload.label}</div>
      <div>
        {String(p.payload[`k${i}`] ?? '')}: {String(p.payload[`l${i}`] ?? '')}
      </div>
    </div>
  );
}

/** One pod's containers as horizontal runs on a seconds axis, with condition and event marks. */
export function GanttChart({ gantt, width = 1100 }: { gantt: PodGanttView; width?: number }) {
  const data = useMemo(() => ganttChartData(gantt), [gantt]);
  // the legend names the marks this pod's chart has, each in its colour
  const present = useMemo(() => new Set(data.markers.map((m) => m.kind)), [data]);
  const domainMax = Math.ceil(data.span * 1.02);
  const lines = useMemo(
    () => data.markers.filter((m) => m.row === null || LINE_KINDS.has(m.kind)),
    [data],
  );
  // the line labels stack in rows above the plot so no two overlap ("proxy ready" and "ready"
  // a second apart): each label's row from its position on the axis and its text's width
  const placed = useMemo(() => {
    const plot = width - MARGIN.left - MARGIN.right - Y_AXIS_PX;
    return labelLevels(
      lines.map((m) => ({
        x: MARGIN.left + Y_AXIS_PX + (domainMax > 0 ? (m.x / domainMax) * plot : 0),
        width: LINE_KINDS.has(m.kind) ? labelWidth(lineText(m), LABEL_PX) : 0,
      })),
    );
  }, [lines, width, domainMax]);
  const top = 14 + Math.max(1, placed.rows) * LABEL_ROW_PX;
  const height = data.rows.length * ROW_PX + top + 42;
  const idx = Array.from({ length: data.segments }, (_, i) => i);
  return (
    <div data-testid="gantt-chart">
      <BarChart
        width={width}
        height={height}
        data={data.rows}
        layout="vertical"
        margin={{ top, ...MARGIN }}
        barCategoryGap={8}
      >
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis
          type="number"
          domain={[0, domainMax]}
          tickFormatter={(s: number) => `+${s}s`}
          fontSize={11}
        />
        <YAxis type="category" dataKey="label" width={Y_AXIS_PX} fontSize={11} />
        <Tooltip content={<SegmentTooltip />} isAnimationActive={false} />
        {idx.flatMap((i) => [
          <Bar
            key={`g${i}`}
            dataKey={`g${i}`}
            stackId="run"
            fill="transparent"
            isAnimationActive={false}
          />,
          <Bar key={`s${i}`} dataKey={`s${i}`} stackId="run" isAnimationActive={false}>
            {data.rows.map((r) => (
              <Cell key={r.label} fill={SEGMENT_COLOR[String(r[`k${i}`])] ?? '#94a3b8'} />
            ))}
          </Bar>,
        ])}
        {lines.map((m, i) => (
          <ReferenceLine
            key={`l${i}`}
            x={m.x}
            stroke={MARKER_COLOR[m.kind] ?? '#334155'}
            strokeDasharray={m.kind === 'proxy-ready' ? undefined : '4 3'}
            strokeWidth={m.kind === 'proxy-ready' ? 2 : 1}
            label={
              LINE_KINDS.has(m.kind)
                ? {
                    value: lineText(m),
                    position: 'top',
                    offset: 4 + (placed.levels[i] ?? 0) * LABEL_ROW_PX,
                    fontSize: LABEL_PX,
                    fill: MARKER_COLOR[m.kind] ?? '#334155',
                  }
                : undefined
            }
          />
        ))}
        {data.markers
          .filter((m) => m.row !== null)
          .map((m, i) => (
            <ReferenceDot
              key={`d${i}`}
              x={m.x}
              y={m.row ?? ''}
              r={5}
              fill={MARKER_COLOR[m.kind] ?? '#334155'}
              stroke="white"
            />
          ))}
      </BarChart>
      <div className="mt-1 flex flex-wrap gap-3 text-xs text-slate-600">
        {Object.entries(SEGMENT_COLOR).map(([k, c]) => (
          <span key={k} className="flex items-center gap-1">
            <span className="inline-block h-2.5 w-4 rounded-sm" style={{ background: c }} />
            {k}
          </span>
        ))}
        {Object.keys(MARKER_COLOR)
          .filter((k) => present.has(k))
          .map((k) => (
            <span key={k} className="flex items-center gap-1">
              <span
                className="inline-block h-2.5 w-2.5 rounded-full"
                style={{ background: MARKER_COLOR[k] }}
              />
              {k}
            </span>
          ))}
      </div>
    </div>
  );
}
