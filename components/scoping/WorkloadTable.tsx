'use client';

import type { WorkloadRow } from '../../lib/api/scoping';
import { Badge } from '../ui/Card';
import { num, sourceLabel } from './format';
import { workloadNameKey } from '../../lib/refs/workload-ref';

function Sources({ w }: { w: WorkloadRow }) {
  return (
    <div className="flex flex-wrap gap-1">
      {w.sources
        .filter((s) => s.available || s.observations > 0)
        .map((s) => (
          <span key={s.source} title={s.errors.slice(0, 3).join('\n')}>
            <Badge tone={s.available ? 'good' : 'bad'}>
              {sourceLabel(s.source)}
              {s.available ? '' : ': unavailable'}
            </Badge>
          </span>
        ))}
      {!w.observed && <Badge tone="warn">not observed</Badge>}
    </div>
  );
}

/** Per workload: destinations actually called (best source first), clusters now and after. */
export function WorkloadTable({ rows }: { rows: WorkloadRow[] }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="scoping-workloads">
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-1 pr-3">Workload</th>
            <th className="py-1 pr-3">Sidecar</th>
            <th className="py-1 pr-3">Sources</th>
            <th className="py-1 pr-3">Calls</th>
            <th className="py-1 pr-3 text-right">Clusters / proxy</th>
            <th className="py-1 pr-3 text-right">Minimum</th>
            <th className="py-1 pr-3 text-right">Predicted</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((w) => {
            const unmeasured = w.proxies.filter((p) => p.measuredActive === null).length;
            return (
              <tr
                key={workloadNameKey(w.namespace, w.name)}
                className="border-t border-slate-100 align-top"
              >
                <td className="py-1 pr-3">
                  <div className="font-medium text-slate-900">{w.name}</div>
                  <div className="text-xs text-slate-500">
                    {w.kind} × {w.replicas}
                  </div>
                </td>
                <td className="py-1 pr-3 text-xs">
                  {w.sidecar.source === 'none' ? (
                    <Badge tone="warn">none</Badge>
                  ) : (
                    `${w.sidecar.source}: ${w.sidecar.name ?? ''}`
                  )}
                </td>
                <td className="py-1 pr-3">
                  <Sources w={w} />
                </td>
                <td className="py-1 pr-3 text-xs text-slate-700">
                  {w.destinations.length === 0
                    ? w.observed
                      ? 'no outbound calls seen'
                      : '–'
                    : w.destinations.map((d) => (
                        <div key={d.host} className="font-mono">
                          {d.host}
                          {d.ports.length > 0 && `:${d.ports.join(',')}`}{' '}
                          <span className="text-slate-600">
                            {num(d.count)} via {sourceLabel(d.bestSource)}
                          </span>
                        </div>
                      ))}
                  {w.cutOff.length > 0 && (
                    <div className="text-red-700">cut off today: {w.cutOff.join(', ')}</div>
                  )}
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">
                  {num(w.clusters.current)}
                  {unmeasured > 0 && (
                    <div className="text-xs text-red-700">{unmeasured} proxy unreachable</div>
                  )}
                </td>
                <td className="py-1 pr-3 text-right tabular-nums">{num(w.clusters.minimum)}</td>
                <td className="py-1 pr-3 text-right tabular-nums">{num(w.clusters.predicted)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
