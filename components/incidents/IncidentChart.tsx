'use client';

import { useState } from 'react';
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { IncidentsView } from './api';
import { chartDomain } from '../../lib/incidents/chart';
import { clock, fmtDuration } from '../../lib/incidents/format';
import { workloadNameKey } from '../../lib/refs/workload-ref';

const FLAG_COLORS: Record<string, string> = {
  UC: '#dc2626',
  UF: '#f97316',
  URX: '#a855f7',
  UH: '#0ea5e9',
  UO: '#eab308',
  NR: '#64748b',
  UT: '#14b8a6',
  '-': '#94a3b8',
};
const color = (f: string, i: number) =>
  FLAG_COLORS[f] ?? ['#be123c', '#4d7c0f', '#1d4ed8', '#9333ea'][i % 4] ?? '#334155';

type Chart = IncidentsView['chart'];

interface Datum {
  /** Middle of the bin: recharts centres a bar on its value on a numeric axis. */
  t: number;
  from: number;
  to: number;
  [flag: string]: number;
}

interface BarShapeProps {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  fill?: string;
  payload?: Datum;
  dataKey?: unknown;
}

interface LineShapeProps {
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}

/** One stacked segment, carrying the bin's true time span for readers and tests. */
function FailureBar(p: BarShapeProps) {
  const { x = 0, y = 0, width = 0, height = 0, fill, payload } = p;
  if (!payload || height <= 0) return <g />;
  return (
    <rect
      x={x}
      y={y}
      width={Math.max(1, width - 1)}
      height={height}
      fill={fill}
      data-testid="failure-bar"
      data-from={new Date(payload.from).toISOString()}
      data-to={new Date(payload.to).toISOString()}
      data-flag={String(p.dataKey)}
    />
  );
}

function markerShape(m: Chart['markers'][number]) {
  const termination = m.kind === 'termination';
  function MarkerLine(p: LineShapeProps) {
    return (
      <line
        x1={p.x1}
        y1={p.y1}
        x2={p.x2}
        y2={p.y2}
        stroke={termination ? '#b91c1c' : '#475569'}
        strokeDasharray={termination ? '4 2' : '1 3'}
        strokeWidth={1.5}
        data-testid="chart-marker"
        data-kind={m.kind}
        data-pod={m.pod}
        data-at={m.at}
      />
    );
  }
  return MarkerLine;
}

function stepLabel(ms: number): string {
  return ms < 60_000 ? `${ms / 1000} s` : fmtDuration(ms);
}

/**
 * Failing requests per bin by response flag, drawn at their true times on one numeric time axis
 * with pod deletions, removals and rollouts. Drag across the chart to zoom: the new window goes
 * to the URL (`onZoom`), so the zoomed view is a link.
 */
export function IncidentChart({
  chart,
  onZoom,
}: {
  chart: Chart;
  onZoom?: (from: string, to: string) => void;
}) {
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const fromMs = Date.parse(chart.from);
  const toMs = Date.parse(chart.to);
  const step = chart.bucketMs;
  const domain = chartDomain(fromMs, toMs, step);
  const data: Datum[] = chart.buckets.map((b) => {
    const from = Date.parse(b.start);
    const d: Datum = { t: from + step / 2, from, to: from + step };
    for (const f of chart.flags) d[f] = b.byFlag[f] ?? 0;
    if (chart.flags.length === 0) d.none = 0;
    return d;
  });
  const inDomain = (ms: number) => ms >= domain[0] && ms <= domain[1];
  const markers = chart.markers.filter((m) => inDomain(Date.parse(m.at)));
  const rollouts = chart.rollouts
    .map((r) => ({
      ...r,
      x1: Math.max(domain[0], Date.parse(r.from)),
      x2: Math.min(domain[1], Date.parse(r.to)),
    }))
    .filter((r) => r.x1 < r.x2);
  const total = chart.buckets.reduce((n, b) => n + b.total, 0);
  const label = (v: unknown) => (typeof v === 'number' ? v : Number(v));
  const commit = () => {
    if (drag && onZoom) {
      const lo = Math.min(drag.a, drag.b) - step / 2;
      const hi = Math.max(drag.a, drag.b) + step / 2;
      if (hi - lo >= 2 * step || (drag.a !== drag.b && hi - lo >= 1000))
        onZoom(new Date(lo).toISOString(), new Date(hi).toISOString());
    }
    setDrag(null);
  };
  return (
    <div
      data-testid="incident-chart"
      data-bin-ms={step}
      data-total={total}
      data-rollouts={rollouts.map((r) => `${r.workload}@${r.replicaSet ?? '?'}`).join(' ')}
    >
      <div
        style={{ width: '100%', height: 260 }}
        className="relative select-none"
        role="img"
        aria-label={`Failing requests from ${chart.from} to ${chart.to} in ${stepLabel(step)} bins: ${total} failing, ${markers.filter((m) => m.kind === 'termination').length} pod deletions.`}
      >
        <ResponsiveContainer>
          <ComposedChart
            data={data}
            margin={{ top: 16, right: 16, bottom: 8, left: 0 }}
            barCategoryGap={0}
            barGap={0}
            onMouseDown={(s) => {
              const v = label(s.activeLabel);
              if (Number.isFinite(v)) setDrag({ a: v, b: v });
            }}
            onMouseMove={(s) => {
              const v = label(s.activeLabel);
              if (drag && Number.isFinite(v)) setDrag({ ...drag, b: v });
            }}
            onMouseUp={commit}
            onMouseLeave={() => setDrag(null)}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={domain}
              allowDataOverflow
              tickFormatter={(v: number) => clock(v)}
              tick={{ fontSize: 11 }}
              tickCount={8}
            />
            <YAxis
              allowDecimals={false}
              // an empty window (no flag, so no bar series) still draws a scale, not a bare box
              domain={total === 0 ? [0, 1] : [0, 'auto']}
              ticks={total === 0 ? [0, 1] : undefined}
              tick={{ fontSize: 11 }}
              width={40}
            />
            <Tooltip
              isAnimationActive={false}
              labelFormatter={(v) => {
                const c = Number(v);
                return `${clock(c - step / 2)}–${clock(c + step / 2)} (${stepLabel(step)})`;
              }}
            />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {rollouts.map((r) => (
              <ReferenceArea
                key={`${workloadNameKey(r.namespace, r.workload)}|${r.from}`}
                x1={r.x1}
                x2={r.x2}
                fill="#fde68a"
                fillOpacity={0.35}
                label={{ value: `rollout ${r.workload}`, position: 'insideTopLeft', fontSize: 11 }}
                zIndex={0}
              />
            ))}
            {markers.map((m) => (
              <ReferenceLine
                key={`${m.kind}|${m.pod}`}
                x={Date.parse(m.at)}
                shape={markerShape(m)}
              />
            ))}
            {chart.flags.length === 0 && (
              // no flag, no series: a zero series holds the Y axis to its scale
              <Bar dataKey="none" legendType="none" fill="none" isAnimationActive={false} />
            )}
            {chart.flags.map((f, i) => (
              <Bar
                key={f}
                dataKey={f}
                stackId="flags"
                fill={color(f, i)}
                isAnimationActive={false}
                name={f === '-' ? '5xx (no flag)' : f}
                shape={FailureBar}
              />
            ))}
            {drag && drag.a !== drag.b && (
              <ReferenceArea
                x1={Math.min(drag.a, drag.b) - step / 2}
                x2={Math.max(drag.a, drag.b) + step / 2}
                fill="#3b82f6"
                fillOpacity={0.15}
              />
            )}
          </ComposedChart>
        </ResponsiveContainer>
        {total === 0 && (
          <p
            className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-slate-500"
            data-testid="incident-chart-empty"
          >
            No failing request from {clock(fromMs)} to {clock(toMs)}
            {markers.length > 0 ? ': the lines mark the pod deletions in it' : ''}.
          </p>
        )}
      </div>
      <p className="mt-1 text-xs text-slate-600">
        Failing requests per {stepLabel(step)}, stacked by response flag, each bar over its own{' '}
        {stepLabel(step)} of time. Red dashed: a pod&apos;s deletion started; grey dotted: it was
        gone. Yellow: rollout.{onZoom ? ' Drag across the chart to zoom in.' : ''}
      </p>
    </div>
  );
}
