'use client';

import { useMemo, useRef, useState } from 'react';
import type { ScopingNamespaceRow } from './api';
import { Badge } from '../ui/Card';
import { SortHeaderCell } from '../ui/SortHeader';
import { ROW_FOCUS_CLASS, useRowFocus } from '../ui/useRowFocus';
import { sortRows } from '../../lib/ui/sort-rows';
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

type Dir = 'asc' | 'desc';

/** The columns the ranking sorts by; the rank (by waste, worst first) is the default. */
const SORTS: {
  key: string;
  header: string;
  right?: boolean;
  value?: (r: ScopingNamespaceRow) => number | string | null;
}[] = [
  { key: 'rank', header: '#', value: (r) => r.rank },
  { key: 'name', header: 'Namespace', value: (r) => r.name },
  { key: 'sidecar', header: 'Default Sidecar' },
  { key: 'own', header: 'Own Sidecars' },
  { key: 'proxies', header: 'Proxies', right: true, value: (r) => r.proxies },
  { key: 'current', header: 'Clusters today', right: true, value: (r) => r.clusters.current },
  { key: 'minimum', header: 'Minimum', right: true, value: (r) => r.clusters.minimum },
  {
    key: 'predicted',
    header: 'After proposal',
    right: true,
    value: (r) => r.clusters.predicted,
  },
  { key: 'waste', header: 'Waste', right: true, value: (r) => r.waste },
];

/**
 * Namespaces ranked by waste: clusters today minus the minimum they need. Sortable by each
 * figure; one Tab stop, the arrow keys move between namespaces and Enter selects one.
 */
export function NamespaceRanking({
  rows,
  selected,
  onSelect,
}: {
  rows: ScopingNamespaceRow[];
  selected: string | undefined;
  onSelect: (ns: string) => void;
}) {
  const [sort, setSort] = useState<{ key: string; dir: Dir }>({ key: 'rank', dir: 'asc' });
  const sorted = useMemo(() => {
    const value = SORTS.find((c) => c.key === sort.key)?.value;
    return value ? sortRows(rows, value, sort.dir) : rows;
  }, [rows, sort]);
  const body = useRef<HTMLTableSectionElement>(null);
  const focus = useRowFocus({
    count: sorted.length,
    selectedIndex: sorted.findIndex((r) => r.name === selected),
    page: 10,
    container: body,
    onOpen: (i) => {
      const r = sorted[i];
      if (r) onSelect(r.name);
    },
  });
  return (
    // hundreds of namespaces scroll inside the card, the header kept in view
    <div className="max-h-[48rem] overflow-auto">
      <table
        className="w-full text-left text-sm"
        data-testid="scoping-table"
        aria-label="Namespaces ranked by waste"
        aria-rowcount={sorted.length + 1}
      >
        <thead className="sticky top-0 bg-white text-xs uppercase tracking-wide text-slate-500">
          <tr aria-rowindex={1}>
            {SORTS.map((c) => (
              <SortHeaderCell
                key={c.key}
                className={`py-1 pr-3 ${c.right ? 'text-right' : ''}`}
                header={c.header}
                sortable={Boolean(c.value)}
                active={sort.key === c.key}
                dir={sort.dir}
                onSort={(dir) => setSort({ key: c.key, dir })}
              />
            ))}
          </tr>
        </thead>
        <tbody ref={body} onKeyDown={focus.onKeyDown}>
          {sorted.map((r, i) => (
            <tr
              key={r.name}
              {...focus.rowProps(i)}
              data-row-key={r.name}
              data-testid={`scoping-ns-${r.name}`}
              aria-selected={selected === r.name}
              className={`cursor-pointer border-t border-slate-100 hover:bg-slate-50 ${ROW_FOCUS_CLASS} ${
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
