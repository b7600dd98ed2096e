'use client';

import { useRef } from 'react';
import type { WorkloadRow } from './api';
import { ROW_FOCUS_CLASS, useRowFocus } from '../ui/useRowFocus';
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

/**
 * Per workload: destinations actually called (best source first), clusters now and after. One
 * Tab stop; the arrow keys move between workloads, Enter picks one (the clusters chart then
 * shows it alone) or, on the picked one, shows them all again.
 */
export function WorkloadTable({
  rows,
  selected,
  onSelect,
}: {
  rows: WorkloadRow[];
  selected: string | undefined;
  onSelect: (workload: string) => void;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const focus = useRowFocus({
    count: rows.length,
    selectedIndex: rows.findIndex((w) => w.name === selected),
    page: 5,
    container: body,
    onOpen: (i) => {
      const w = rows[i];
      if (w) onSelect(w.name);
    },
  });
  return (
    <div className="overflow-x-auto">
      <table
        className="w-full text-left text-sm"
        data-testid="scoping-workloads"
        aria-label="Workloads: what they call"
        aria-rowcount={rows.length + 1}
      >
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr aria-rowindex={1}>
            <th className="py-1 pr-3">Workload</th>
            <th className="py-1 pr-3">Sidecar</th>
            <th className="py-1 pr-3">Sources</th>
            <th className="py-1 pr-3">Calls</th>
            <th className="py-1 pr-3 text-right">Clusters / proxy</th>
            <th className="py-1 pr-3 text-right">Minimum</th>
            <th className="py-1 pr-3 text-right">Predicted</th>
          </tr>
        </thead>
        <tbody ref={body} onKeyDown={focus.onKeyDown}>
          {rows.map((w, i) => {
            const unmeasured = w.proxies.filter((p) => p.measuredActive === null).length;
            return (
              <tr
                key={workloadNameKey(w.namespace, w.name)}
                {...focus.rowProps(i)}
                data-row-key={workloadNameKey(w.namespace, w.name)}
                aria-selected={w.name === selected}
                onClick={() => onSelect(w.name)}
                className={`cursor-pointer border-t border-slate-100 align-top hover:bg-slate-50 ${ROW_FOCUS_CLASS} ${w.name === selected ? 'bg-sky-50' : ''}`}
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
