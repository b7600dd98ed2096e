'use client';

import type { ScopingNamespaceRow } from '../../lib/api/scoping';
import { Badge } from '../ui/Card';
import { num, pct } from './format';

function SidecarCell({ row }: { row: ScopingNamespaceRow }) {
  const d = row.defaultSidecar;
  if (d.source === 'namespace') return <Badge tone="good">own: {d.name}</Badge>;
  if (d.source === 'root')
    return (
      <Badge tone="info">
        mesh root: {d.namespace}/{d.name}
      </Badge>
    );
  return <Badge tone="warn">none</Badge>;
}

/** Namespaces ranked by waste: clusters today minus the minimum they need. */
export function NamespaceRanking({
  rows,
  selected,
  onSelect,
}: {
  rows: ScopingNamespaceRow[];
  selected: string | undefined;
  onSelect: (ns: string) => void;
}) {
  return (
    // hundreds of namespaces scroll inside the card, the header kept in view
    <div className="max-h-[48rem] overflow-auto">
      <table className="w-full text-left text-sm" data-testid="scoping-table">
        <thead className="sticky top-0 bg-white text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="py-1 pr-3">#</th>
            <th className="py-1 pr-3">Namespace</th>
            <th className="py-1 pr-3">Default Sidecar</th>
            <th className="py-1 pr-3">Own Sidecars</th>
            <th className="py-1 pr-3 text-right">Proxies</th>
            <th className="py-1 pr-3 text-right">Clusters today</th>
            <th className="py-1 pr-3 text-right">Minimum</th>
            <th className="py-1 pr-3 text-right">After proposal</th>
            <th className="py-1 pr-3 text-right">Waste</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr
              key={r.name}
              data-testid={`scoping-ns-${r.name}`}
              className={`cursor-pointer border-t border-slate-100 hover:bg-slate-50 ${
                selected === r.name ? 'bg-sky-50' : ''
              }`}
              onClick={() => onSelect(r.name)}
            >
              <td className="py-1 pr-3 tabular-nums text-slate-500">{r.rank}</td>
              <td className="py-1 pr-3 font-medium text-slate-900">{r.name}</td>
              <td className="py-1 pr-3">
                <SidecarCell row={r} />
              </td>
              <td className="py-1 pr-3 text-xs text-slate-600">
                {r.workloadSidecars.length === 0
                  ? '–'
                  : r.workloadSidecars.map((w) => `${w.workload} (${w.sidecar})`).join(', ')}
              </td>
              <td className="py-1 pr-3 text-right tabular-nums">{num(r.proxies)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">
                {num(r.clusters.current)}
                {!r.clusters.measured && <span className="text-xs text-slate-600"> (model)</span>}
              </td>
              <td className="py-1 pr-3 text-right tabular-nums">{num(r.clusters.minimum)}</td>
              <td className="py-1 pr-3 text-right tabular-nums">{num(r.clusters.predicted)}</td>
              <td
                className="py-1 pr-3 text-right tabular-nums"
                data-testid="scoping-waste"
                data-waste={r.waste ?? undefined}
                data-current={r.clusters.current}
                data-minimum={r.clusters.minimum}
                data-partial={r.unobservedWorkloads > 0 ? 'true' : undefined}
              >
                {r.waste === null ? (
                  <span
                    className="text-xs text-amber-700"
                    title="none of its workloads was observed: what it uses is not known"
                    data-testid="waste-unknown"
                  >
                    unknown (no workload observed)
                  </span>
                ) : (
                  <>
                    {num(r.waste)}{' '}
                    <span className="text-xs text-slate-600">
                      {pct(r.waste, r.clusters.current)}
                    </span>
                  </>
                )}
                {r.waste !== null && r.unobservedWorkloads > 0 && (
                  <span
                    className="ml-1 text-xs text-amber-700"
                    title="workloads not observed by any source: their minimum counts no called service, so their part of the waste is at most this"
                  >
                    partial: {r.unobservedWorkloads} workload
                    {r.unobservedWorkloads === 1 ? '' : 's'} unobserved
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
