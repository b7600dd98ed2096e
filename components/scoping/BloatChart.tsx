'use client';

import { useQuery } from '@tanstack/react-query';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { markerEffects } from '../../lib/bloat/effects';
import { chartExtent } from '../../lib/bloat/extent';
import { QueryBoundary } from '../data/QueryBoundary';
import { useClusterContext } from '../data/useClusterContext';
import { bloatQuery, type BloatView } from './api';
import { workloadNameKey } from '../../lib/refs/workload-ref';
import { objectKey, objectText } from '../../lib/refs/object-ref';

const time = (t: number) => new Date(t).toISOString().slice(11, 19);

/** Clusters per proxy over time, the Sidecar resources applied, and Scoping's figures. */
export function BloatPanel({
  namespace,
  workload,
}: {
  namespace: string;
  workload: string | null;
}) {
  const ctx = useClusterContext();
  const query = useQuery(bloatQuery(ctx, namespace, workload));
  return (
    <QueryBoundary query={query} what="the cluster counts over time">
      {(view) => <BloatChart view={view} />}
    </QueryBoundary>
  );
}

export function BloatChart({ view }: { view: BloatView }) {
  if (view.state === 'needs-prometheus')
    return (
      <div className="space-y-1 text-sm text-slate-700" data-testid="bloat-needs-prometheus">
        <p>{view.message}</p>
        <p className="font-medium">{view.fix}</p>
      </div>
    );
  if (view.state === 'error')
    return (
      <div className="space-y-1 text-sm text-red-800" data-testid="bloat-error">
        <p>{view.message}</p>
        <p className="font-mono text-xs text-slate-600">{view.query}</p>
      </div>
    );
  const extent = chartExtent(view.line.points, view.markers);
  const data = view.line.points
    .filter((p) => extent !== null && p.t >= extent.start)
    .map((p) => ({ t: p.t, avg: p.avg, max: p.max }));
  const { modelled, proposed, error } = view.prediction;
  const effects = new Map(markerEffects(view.line.points, view.markers).map((e) => [e.at, e]));
  const perProxy = (v: number | null | undefined) => (v == null ? 'unknown' : String(v));
  const showProposed = proposed !== null && proposed !== modelled;
  // the higher figure's label above its line, the lower one's below, so they never overlap
  const above = 'insideBottomLeft' as const;
  const below = 'insideTopLeft' as const;
  const modelledHigher = modelled !== null && (proposed === null || modelled >= proposed);
  // a marker in the right half is labelled to its left, so the label is not cut at the edge
  const markerLabelLeft = (at: number) => extent !== null && at > (extent.start + extent.end) / 2;
  return (
    <div className="space-y-2" data-testid="bloat-chart">
      <p className="text-sm text-slate-700">
        Clusters per proxy in{' '}
        {view.workload ? workloadNameKey(view.namespace, view.workload) : view.namespace} from{' '}
        {view.from} to {view.to} (one point per {view.stepSeconds} s, from {view.prometheus}).
      </p>
      {extent?.firstSampleAt != null && (
        <p className="text-xs text-slate-600" data-testid="bloat-starts-late">
          Prometheus has no sample for these proxies before {time(extent.firstSampleAt)}: the chart
          starts there (or at the first Sidecar applied, if earlier).
        </p>
      )}
      {extent === null ? (
        <p className="text-sm text-amber-800" data-testid="bloat-no-series">
          Prometheus has no envoy_cluster_manager_active_clusters series for these proxies in this
          window: their counts are unknown, not 0.
        </p>
      ) : (
        <div style={{ width: '100%', height: 260 }}>
          <ResponsiveContainer>
            <LineChart data={data} margin={{ top: 16, right: 16, bottom: 8, left: 0 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis
                dataKey="t"
                type="number"
                domain={[extent.start, extent.end]}
                allowDataOverflow
                tickFormatter={time}
                tick={{ fontSize: 11 }}
              />
              <YAxis tick={{ fontSize: 11 }} width={48} />
              <Tooltip labelFormatter={(t) => time(Number(t))} />
              <Legend />
              {/* a step holds the last sample Prometheus had at it: drawn as steps, a change shows
                  at the first step that saw it, never before the Sidecar that caused it */}
              <Line
                type="stepAfter"
                dataKey="avg"
                name="average per proxy"
                stroke="#0284c7"
                dot={false}
                isAnimationActive={false}
              />
              <Line
                type="stepAfter"
                dataKey="max"
                name="largest proxy"
                stroke="#94a3b8"
                dot={false}
                isAnimationActive={false}
              />
              {view.markers.map((m) => (
                <ReferenceLine
                  key={objectKey(m.namespace, m.name)}
                  x={m.at}
                  stroke="#b45309"
                  strokeDasharray="4 2"
                  label={{
                    value: objectText('Sidecar', m),
                    fontSize: 11,
                    position: markerLabelLeft(m.at) ? 'insideTopRight' : 'insideTopLeft',
                  }}
                />
              ))}
              {modelled !== null && (
                <ReferenceLine
                  y={modelled}
                  stroke="#15803d"
                  strokeDasharray="2 2"
                  ifOverflow="extendDomain"
                  label={{
                    value: `Scoping, scope in force: ${modelled}`,
                    fontSize: 11,
                    position: modelledHigher ? above : below,
                  }}
                />
              )}
              {showProposed && (
                <ReferenceLine
                  y={proposed}
                  stroke="#7c3aed"
                  strokeDasharray="2 2"
                  ifOverflow="extendDomain"
                  label={{
                    value: `Scoping's proposal: ${proposed}`,
                    fontSize: 11,
                    position: modelledHigher ? below : above,
                  }}
                />
              )}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
      <ul className="text-xs text-slate-600" data-testid="bloat-markers">
        {view.markers.length === 0 && <li>No Sidecar resource was applied in this window.</li>}
        {view.markers.map((m) => (
          <li key={objectKey(m.namespace, m.name)} data-testid="bloat-marker">
            Sidecar {m.namespace}/{m.name} at {new Date(m.at).toISOString()} (its {m.from}):{' '}
            <span data-testid="bloat-marker-effect">
              clusters per proxy {perProxy(effects.get(m.at)?.before)} before,{' '}
              {perProxy(effects.get(m.at)?.after)} after
            </span>
          </li>
        ))}
        {error && <li>{error}</li>}
        {view.workload === null && view.unscopablePods > 0 && (
          <li data-testid="bloat-unscopable">
            {view.unscopablePods} gateway or waypoint{' '}
            {view.unscopablePods === 1 ? 'proxy is' : 'proxies are'} left out of the namespace line:
            no Sidecar scopes them (pick the workload to see it).
          </li>
        )}
        {view.implausibleSamples.count > 0 && (
          <li data-testid="bloat-implausible">
            {view.implausibleSamples.count} samples left out of the lines: no cluster count can be
            what they read (
            {view.implausibleSamples.examples
              .map((x) => `${x.figure} read ${x.raw}: ${x.reason}`)
              .join('; ')}
            ).
          </li>
        )}
        {view.unattributedPods > 0 && (
          <li>
            {view.unattributedPods} pods with series are not in meshdx&apos;s pod inventory: counted
            in the namespace line only.
          </li>
        )}
      </ul>
    </div>
  );
}
