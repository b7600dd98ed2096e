'use client';

import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DistributionBin } from './api';
import { compactCount, count } from './format';

/**
 * How many proxies carry how many active clusters. Every bin is labelled under its bar with
 * where it starts (a range per bar does not fit: the axis dropped every other one, and a bar
 * then read as its neighbour's), and every bar that holds proxies carries its count.
 */
export function FleetChart({ bins }: { bins: DistributionBin[] }) {
  if (bins.length === 0) return <p className="text-sm text-slate-500">No proxy answered.</p>;
  const data = bins.map((b) => ({
    from: b.from,
    range: `${count(b.from)}–${count(b.to - 1)} clusters`,
    proxies: b.count,
  }));
  const width = (bins[0] as DistributionBin).to - (bins[0] as DistributionBin).from;
  return (
    <div style={{ width: '100%', height: 220 }} data-testid="proxies-distribution">
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 16, right: 8, bottom: 16, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="from"
            interval={0}
            tick={{ fontSize: 10 }}
            tickFormatter={compactCount}
            label={{
              value: `active clusters (bins of ${count(width)}, by where each starts)`,
              position: 'insideBottom',
              offset: -10,
              fontSize: 11,
            }}
          />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 11 }}
            tickFormatter={compactCount}
            width={40}
          />
          <Tooltip
            labelFormatter={(_, payload) => String(payload[0]?.payload?.range ?? '')}
            formatter={(v) => [count(Number(v)), 'proxies']}
          />
          <Bar dataKey="proxies" fill="#0284c7" isAnimationActive={false}>
            <LabelList
              dataKey="proxies"
              position="top"
              fontSize={10}
              formatter={(v: unknown) => (Number(v) > 0 ? count(Number(v)) : '')}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
