'use client';

import { useMemo } from 'react';
import {
  Bar,
  CartesianGrid,
  Cell,
  ReferenceLine,
  Scatter,
  ComposedChart,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { TimelineFleet } from '../../lib/api/timelines';
import { workloadNameKey } from '../../lib/refs/workload-ref';

type Workload = TimelineFleet['workloads'][number];

export interface GapDatum {
  label: string;
  range: [number, number];
  median: number;
  pods: number;
  measured: number;
}

/** Workloads with a measured gap, worst (most negative) first, at most `limit`. */
export function gapData(workloads: readonly Workload[], limit: number): GapDatum[] {
  return workloads
    .filter((w) => w.minMs !== null && w.maxMs !== null)
    .map((w) => ({
      label: workloadNameKey(w.namespace, w.name),
      range: [(w.minMs ?? 0) / 1000, (w.maxMs ?? 0) / 1000] as [number, number],
      median: (w.medianMs ?? 0) / 1000,
      pods: w.pods,
      measured: w.measured,
    }))
    .sort((a, b) => a.range[0] - b.range[0] || a.label.localeCompare(b.label))
    .slice(0, limit);
}

/**
 * The gap axis: every workload's min..max and zero (proxy ready) on one numeric axis, padded to
 * a round number of seconds, so a bar's position is its true gap and never a category slot.
 */
export function gapDomain(data: readonly GapDatum[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const d of data) {
    lo = Math.min(lo, d.range[0], d.median);
    hi = Math.max(hi, d.range[1], d.median);
  }
  const span = Math.max(1, hi - lo);
  const step = span <= 5 ? 0.5 : span <= 20 ? 1 : span <= 60 ? 5 : 10;
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/**
 * Per workload: the spread of (first app start − proxy ready) over its pods, min to max, with
 * the median as a dot. Left of zero the app started before its proxy was ready.
 */
export function GapChart({
  workloads,
  limit = 24,
  width = 640,
}: {
  workloads: readonly Workload[];
  limit?: number;
  width?: number;
}) {
  const data = useMemo(() => gapData(workloads, limit), [workloads, limit]);
  const measured = workloads.filter((w) => w.minMs !== null).length;
  if (data.length === 0) {
    return <p className="text-sm text-slate-500">No workload has a measurable startup gap.</p>;
  }
  // room above the plot and right of it for the centred "proxy ready" label of the zero line,
  // which sits at the right edge when every gap is negative
  const height = data.length * 24 + 72;
  return (
    <div data-testid="gap-chart">
      <ComposedChart
        width={width}
        height={height}
        data={data}
        layout="vertical"
        margin={{ top: 18, right: 36, bottom: 20, left: 10 }}
      >
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis
          type="number"
          domain={gapDomain(data)}
          allowDataOverflow={false}
          fontSize={11}
          tickFormatter={(s: number) => `${s}s`}
          label={{
            value: 'app start − proxy ready (s)',
            position: 'insideBottomRight',
            offset: -4,
            fontSize: 10,
          }}
        />
        <YAxis type="category" dataKey="label" width={190} fontSize={11} />
        <Tooltip
          isAnimationActive={false}
          formatter={(v: unknown, name: unknown) =>
            Array.isArray(v)
              ? [`${v[0]}s … ${v[1]}s`, 'min … max']
              : [`${String(v)}s`, String(name)]
          }
        />
        <ReferenceLine
          x={0}
          stroke="#7c3aed"
          label={{ value: 'proxy ready', fontSize: 10, position: 'top' }}
        />
        <Bar dataKey="range" barSize={12} isAnimationActive={false}>
          {data.map((d) => (
            <Cell key={d.label} fill={d.range[0] < 0 ? '#f87171' : '#34d399'} />
          ))}
        </Bar>
        <Scatter dataKey="median" fill="#1e293b" isAnimationActive={false} />
      </ComposedChart>
      {measured > data.length && (
        <p className="mt-1 text-xs text-slate-500">
          The {data.length} workloads with the earliest app starts of {measured} measured.
        </p>
      )}
    </div>
  );
}
