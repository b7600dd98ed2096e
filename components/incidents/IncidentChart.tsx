'use client';

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
import type { IncidentsView } from '../../lib/api/incidents';
import { clock } from '../../lib/incidents/format';

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

/** Failing requests per bucket by response flag, with pod terminations and rollouts on the same axis. */
export function IncidentChart({ chart }: { chart: IncidentsView['chart'] }) {
  if (chart.buckets.length === 0)
    return <p className="text-sm text-slate-500">No failing requests in this window.</p>;
  const half = chart.bucketMs / 2;
  const data = chart.buckets.map((b) => ({
    t: Date.parse(b.start) + half,
    ...Object.fromEntries(chart.flags.map((f) => [f, b.byFlag[f] ?? 0])),
  }));
  const first = Date.parse(chart.buckets[0]?.start ?? '');
  const lastStart = Date.parse(chart.buckets[chart.buckets.length - 1]?.start ?? '');
  const times = [
    first,
    lastStart + chart.bucketMs,
    ...chart.markers.map((m) => Date.parse(m.at)),
    ...chart.rollouts.flatMap((r) => [Date.parse(r.from), Date.parse(r.to)]),
  ];
  const domain = [Math.min(...times), Math.max(...times)];
  const perMinute = chart.bucketMs === 60_000 ? 'per minute' : `per ${chart.bucketMs / 60_000} min`;
  return (
    <div data-testid="incident-chart">
      <div style={{ width: '100%', height: 260 }}>
        <ResponsiveContainer>
          <ComposedChart
            data={data}
            margin={{ top: 16, right: 16, bottom: 8, left: 0 }}
            barCategoryGap={2}
          >
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={domain}
              tickFormatter={(v: number) => clock(v)}
              tick={{ fontSize: 11 }}
            />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={40} />
            <Tooltip labelFormatter={(v) => `${clock(Number(v) - half)} (${perMinute})`} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {chart.rollouts.map((r) => (
              <ReferenceArea
                key={`${r.namespace}/${r.workload}/${r.from}`}
                x1={Date.parse(r.from)}
                x2={Date.parse(r.to)}
                fill="#fde68a"
                fillOpacity={0.35}
                label={{ value: `rollout ${r.workload}`, position: 'insideTopLeft', fontSize: 11 }}
                zIndex={0}
              />
            ))}
            {chart.markers.map((m) => (
              <ReferenceLine
                key={`${m.kind}/${m.pod}`}
                x={Date.parse(m.at)}
                stroke={m.kind === 'termination' ? '#b91c1c' : '#475569'}
                strokeDasharray={m.kind === 'termination' ? '4 2' : '1 3'}
              />
            ))}
            {chart.flags.map((f, i) => (
              <Bar
                key={f}
                dataKey={f}
                stackId="flags"
                fill={color(f, i)}
                isAnimationActive={false}
                name={f === '-' ? '5xx (no flag)' : f}
                maxBarSize={48}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Failing requests {perMinute}, stacked by response flag. Red dashed: a pod&apos;s deletion
        started; grey dotted: it was gone. Yellow: rollout.
      </p>
    </div>
  );
}
