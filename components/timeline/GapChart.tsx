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
import type { TimelineFleet } from './api';
import { GAP_FILL, gapChartHeight, gapData, gapDomain } from './gap-data';

type Workload = TimelineFleet['workloads'][number];

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
  const height = gapChartHeight(data.length);
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
            <Cell key={d.label} fill={GAP_FILL[d.tone]} />
          ))}
        </Bar>
        <Scatter dataKey="median" fill="#1e293b" isAnimationActive={false} />
      </ComposedChart>
      <p className="mt-1 text-xs text-slate-600">
        Red: the app started before its proxy was ready and pods raced. Blue: held (hold or native
        sidecar): the app waited for its proxy to start; the gap is the proxy&apos;s readiness
        probe, not a race. Green: app after proxy ready.
      </p>
      {measured > data.length && (
        <p className="mt-1 text-xs text-slate-500">
          The {data.length} workloads with the earliest app starts of {measured} measured.
        </p>
      )}
    </div>
  );
}
