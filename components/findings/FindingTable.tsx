'use client';

import { useMemo, useRef, useState } from 'react';
import type { FindingsReport } from './api';
import { sortRows } from '../../lib/ui/sort-rows';
import { PodLink } from '../inventory/PodLink';
import { Badge } from '../ui/Card';
import { Evidence } from '../ui/Evidence';
import { SortHeaderCell } from '../ui/SortHeader';
import { ROW_FOCUS_CLASS, useRowFocus } from '../ui/useRowFocus';
import { RowIsTabStop } from '../ui/row-tab-stop';
import { SEVERITY_ORDER } from './summary';
import { findingLinks } from '../../lib/findings/links';
import { FindingLinks } from './FindingLinks';

type Finding = FindingsReport['findings'][number];
type Dir = 'asc' | 'desc';

const tone = { error: 'bad', warning: 'warn', info: 'info' } as const;

/** Findings shown at first and added per click: a fleet's hundreds are not laid out at once. */
const PAGE = 100;

const subjectText = (f: Finding) =>
  `${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`;

/** The sortable columns; the rows come worst first (the severity column, ascending). */
const COLUMNS: {
  key: string;
  header: string;
  value?: (f: Finding, titles: Map<string, { title: string }>) => number | string;
}[] = [
  { key: 'severity', header: 'Severity', value: (f) => SEVERITY_ORDER[f.severity] },
  { key: 'code', header: 'Code', value: (f) => f.code },
  { key: 'finding', header: 'Finding', value: (f, t) => t.get(f.code)?.title ?? f.code },
  { key: 'object', header: 'Object', value: subjectText },
  { key: 'evidence', header: 'Evidence' },
];

/**
 * Every finding, one row per object, worst first and sortable by its headers. One Tab stop: the
 * arrow keys, Home and End move between rows, Enter (or a click) opens a row to its fix.
 */
export function FindingTable({
  rows,
  titles,
  domains,
}: {
  /** Worst first (sortFindings). */
  rows: Finding[];
  titles: Map<string, { title: string }>;
  /** Each code's domain (its catalog entry's): the views that show its findings. */
  domains: Map<string, string | undefined>;
}) {
  const [shown, setShown] = useState(PAGE);
  const [sort, setSort] = useState<{ key: string; dir: Dir }>({ key: 'severity', dir: 'asc' });
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const sorted = useMemo(() => {
    const value = COLUMNS.find((c) => c.key === sort.key)?.value;
    // each row keeps its index in `rows`: what is open stays open when the order changes
    const indexed = rows.map((f, i) => ({ f, i }));
    return value ? sortRows(indexed, (r) => value(r.f, titles), sort.dir) : indexed;
  }, [rows, titles, sort]);
  const visible = sorted.slice(0, shown);
  const body = useRef<HTMLTableSectionElement>(null);
  const toggle = (i: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(i)) next.add(i);
      return next;
    });
  const focus = useRowFocus({
    count: visible.length,
    selectedIndex: -1,
    page: 10,
    container: body,
    untabControls: true,
    onOpen: (at) => {
      const r = visible[at];
      if (r) toggle(r.i);
    },
  });
  if (rows.length === 0) return <p className="text-sm text-slate-600">No findings match.</p>;
  const left = rows.length - shown;
  return (
    <>
      <div className="overflow-x-auto">
        <table
          className="w-full text-left text-sm"
          data-testid="findings-list"
          aria-label="Findings, one per object"
          aria-rowcount={visible.length + 1}
        >
          <thead className="text-xs text-slate-600">
            <tr aria-rowindex={1}>
              {COLUMNS.map((c) => (
                <SortHeaderCell
                  key={c.key}
                  className="py-1 pr-3 font-medium"
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
            {/* each row is the table's Tab stop: the links in it are not */}
            <RowIsTabStop.Provider value>
              {visible.map(({ f, i }, at) => {
                const isOpen = open.has(i);
                const key = `${f.code}|${subjectText(f)}|${i}`;
                return (
                  <tr
                    key={key}
                    {...focus.rowProps(at)}
                    data-row-key={key}
                    data-code={f.code}
                    // (aria-expanded belongs to a treegrid's rows, not a table's)
                    data-open={isOpen}
                    onClick={() => toggle(i)}
                    className={`cursor-pointer border-t border-slate-100 align-top hover:bg-slate-50 ${ROW_FOCUS_CLASS}`}
                  >
                    <td className="py-2 pr-3">
                      <Badge tone={tone[f.severity]}>{f.severity}</Badge>
                    </td>
                    <td className="py-2 pr-3 font-mono text-xs">{f.code}</td>
                    <td className="py-2 pr-3">
                      <span className="font-medium">{titles.get(f.code)?.title}</span>
                      {f.fix && (
                        <div className="mt-1 text-xs text-sky-800">
                          {isOpen ? '▾' : '▸'} Fix: {f.fix.why}
                        </div>
                      )}
                      {isOpen && f.fix?.yaml && (
                        <pre
                          className="mt-1 cursor-text overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-100"
                          data-testid="finding-fix-yaml"
                          // selecting the YAML to copy it does not close the row
                          onClick={(e) => e.stopPropagation()}
                        >
                          {f.fix.yaml}
                        </pre>
                      )}
                    </td>
                    <td className="py-2 pr-3 break-words text-slate-700">
                      {f.subject.kind === 'Pod' && f.subject.namespace ? (
                        <>
                          Pod{' '}
                          <PodLink pod={{ namespace: f.subject.namespace, name: f.subject.name }} />
                        </>
                      ) : (
                        subjectText(f)
                      )}
                      <FindingLinks links={findingLinks(f, domains.get(f.code))} />
                    </td>
                    <td className="py-2 pr-3">
                      <Evidence evidence={f.evidence} />
                    </td>
                  </tr>
                );
              })}
            </RowIsTabStop.Provider>
          </tbody>
        </table>
      </div>
      {left > 0 && (
        <p
          className="mt-2 flex items-center gap-2 text-xs text-slate-600"
          data-testid="findings-more"
        >
          Showing {shown} of {rows.length}.
          <button
            type="button"
            className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
            onClick={() => setShown(shown + PAGE)}
          >
            Show {Math.min(PAGE, left)} more
          </button>
          <button
            type="button"
            className="rounded border border-slate-300 px-2 py-0.5 hover:bg-slate-50"
            onClick={() => setShown(rows.length)}
          >
            Show all
          </button>
        </p>
      )}
    </>
  );
}
