'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { DistributionBin } from '../../lib/api/proxies';
import { compactCount } from './format';

/** How many proxies carry how many active clusters. */
export function FleetChart({ bins }: { bins: DistributionBin[] }) {
  if (bins.length === 0) return <p className="text-sm text-slate-500">No proxy answered.</p>;
  const data = bins.map((b) => ({ label: `${b.from}–${b.to - 1}`, proxies: b.count }));
  return (
    <div style={{ width: '100%', height: 200 }} data-testid="proxies-distribution">
      <ResponsiveContainer>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 11 }}
            tickFormatter={compactCount}
            width={40}
          />
          <Tooltip />
          <Bar dataKey="proxies" fill="#0284c7" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
