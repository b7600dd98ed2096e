'use client';

import {
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { IncidentsView } from './api';
import { clock, fmtDuration } from '../../lib/incidents/format';
import { Card } from '../ui/Card';
import { MemoryNote } from './MemoryNote';
import { PodLink } from '../inventory/PodLink';
import { tryParsePodRef } from '../../lib/refs/pod-ref';

/** An `ns/name` as a link to the pod's page (gone pods have one too), else as written. */
function podText(key: string) {
  const ref = tryParsePodRef(key);
  return ref ? <PodLink pod={ref} /> : key;
}

const MAX_ROWS = 50;

/**
 * How long each client proxy kept sending to a pod after its deletion started: the figure
 * people ask Istio for when 503s follow a rollout. A table per client and deleted pod, and
 * over time the longest and median lag of the deletions that started in each bin.
 */
export function LagCard({ view }: { view: IncidentsView }) {
  const { rows, series } = view.lag;
  const data = series.map((p) => ({
    t: Date.parse(p.start),
    max: p.maxLagMs / 1000,
    median: p.medianLagMs / 1000,
    pairs: p.pairs,
  }));
  return (
    <Card title="How long each client kept the deleted pods" testId="incident-lag">
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">
          No client sent a failing request to a pod after its deletion started in this window.
        </p>
      ) : (
        <>
          <div
            style={{ width: '100%', height: 180 }}
            role="img"
            aria-label={`Longest lag per deletion time: up to ${fmtDuration(rows[0]?.lagMs ?? 0)}`}
            data-testid="lag-chart"
          >
            <ResponsiveContainer>
              <ComposedChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} />
                <XAxis
                  dataKey="t"
                  type="number"
                  scale="time"
                  domain={['dataMin', 'dataMax']}
                  tickFormatter={(v: number) => clock(v)}
                  tick={{ fontSize: 11 }}
                />
                <YAxis tick={{ fontSize: 11 }} width={40} unit=" s" />
                <Tooltip isAnimationActive={false} labelFormatter={(v) => clock(Number(v))} />
                <Legend wrapperStyle={{ fontSize: 12 }} />
                <Line
                  dataKey="max"
                  name="longest lag (s)"
                  stroke="#b91c1c"
                  isAnimationActive={false}
                />
                <Line
                  dataKey="median"
                  name="median lag (s)"
                  stroke="#475569"
                  strokeDasharray="4 2"
                  isAnimationActive={false}
                />
              </ComposedChart>
            </ResponsiveContainer>
          </div>
          <table className="mt-2 w-full text-left text-xs" data-testid="lag-table">
            <thead className="text-slate-600">
              <tr>
                <th scope="col" className="py-1">
                  Client proxy
                </th>
                <th scope="col">Deleted pod</th>
                <th scope="col">Deletion started</th>
                <th scope="col">Last request to it</th>
                <th scope="col">Lag</th>
                <th scope="col">Requests after</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, MAX_ROWS).map((r) => (
                <tr key={`${r.client}|${r.podUid ?? r.pod}`} className="border-t border-slate-100">
                  <td className="py-0.5 font-mono">{podText(r.client)}</td>
                  <td className="font-mono">{podText(r.pod)}</td>
                  <td className="font-mono">{clock(r.deletionStartedAt)}</td>
                  <td className="font-mono">{clock(r.lastRequestAt)}</td>
                  <td className="tabular-nums">{fmtDuration(r.lagMs)}</td>
                  <td className="tabular-nums">{r.requests}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length > MAX_ROWS && (
            <p className="mt-1 text-xs text-slate-500">
              The {MAX_ROWS} longest of {rows.length} shown.
            </p>
          )}
        </>
      )}
      <MemoryNote memory={view.memory} />
    </Card>
  );
}
