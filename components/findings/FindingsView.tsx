'use client';

import { useQuery } from '@tanstack/react-query';
import { findingsQuery, type FindingsReport } from './api';
import { useFindingsFollow } from './useFindingsFollow';
import { QueryBoundary } from '../data/QueryBoundary';
import { useViewState } from '../data/useViewState';
import { Badge, Card } from '../ui/Card';
import { FilterBar, SelectFilter } from '../ui/Filters';
import { findingsShown } from '../../lib/findings/view-filter';
import { GroupList } from './GroupList';
import { countByCode, sortFindings } from './summary';
import { useClusterContext } from '../data/useClusterContext';
import { LateNote } from '../ui/LateNote';
import { ReportTime } from '../ui/ReportTime';
import { FindingTable } from './FindingTable';
import { IstiodNote } from './IstiodNote';
import { istioApplicabilityText } from '../../lib/findings/istiod';
import { counted } from '../../lib/text-list';

const tone = { error: 'bad', warning: 'warn', info: 'info' } as const;

export function FindingsView() {
  const [state, update] = useViewState('findings');
  const ctx = useClusterContext();
  const query = useQuery(findingsQuery(ctx));
  // a configuration change heard by the server brings the next report
  useFindingsFollow(ctx, query.data);
  return (
    <QueryBoundary query={query} what="findings">
      {(report) => {
        const titles = new Map(report.catalog.map((c) => [c.code, c]));
        const domains = new Map(report.catalog.map((c) => [c.code, c.domain]));
        // what the view shows of the report for its URL state (lib/findings/view-filter.ts)
        const shown = findingsShown(report, state);
        const { inNamespace, groups, namespaces } = shown;
        const codes = countByCode(inNamespace, report.catalog);
        const rows = sortFindings(shown.rows);
        // each code's Istio versions, and whether they take in the cluster's istiod
        const istioText = (code: string) => {
          const e = titles.get(code);
          return e ? istioApplicabilityText(e.istio, report.istiod) : undefined;
        };
        return (
          <div className="space-y-4">
            <LateNote late={report.late} />
            <ReportTime at={report.generatedAt} what="Findings" />
            <IstiodNote
              istiod={report.istiod}
              notApplicable={shown.notApplicable}
              catalog={titles}
            />
            <Card
              title={`${counted(groups.length, 'kind')} of finding, worst first`}
              testId="findings-groups-card"
            >
              <GroupList groups={groups} domains={domains} istio={istioText} />
            </Card>
            <Card title="By code (click to filter)" testId="findings-by-code">
              <div className="flex flex-wrap gap-2">
                {codes.map((c) => (
                  <button
                    key={c.code}
                    type="button"
                    data-code-count={c.code}
                    title={istioText(c.code)}
                    onClick={() => update({ code: state.code === c.code ? undefined : c.code })}
                    className={`rounded border px-2 py-1 text-left text-xs ${state.code === c.code ? 'border-sky-500 bg-sky-50' : 'border-slate-200 bg-white hover:bg-slate-50'}`}
                  >
                    <Badge tone={tone[c.severity]}>{c.count}</Badge>{' '}
                    <span className="font-mono">{c.code}</span> {c.title}
                  </button>
                ))}
              </div>
              {report.sources && report.sources.length > 0 && (
                <details className="mt-3 text-xs text-slate-600" data-testid="findings-sources">
                  <summary className="cursor-pointer">
                    Built from {report.sources.length} sources
                    {report.sources.some((s) => !s.ok) &&
                      `, ${report.sources.filter((s) => !s.ok).length} unavailable`}
                  </summary>
                  <ul className="mt-1 space-y-0.5">
                    {report.sources.map((s) => (
                      <li key={s.name}>
                        {s.ok ? '✓' : '✗'} <span className="font-medium">{s.name}</span>: {s.detail}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
              {report.istioctl && <IstioctlBeside c={report.istioctl} />}
              {report.suppressed && report.suppressed.count > 0 && (
                <details className="mt-2 text-xs text-slate-600" data-testid="findings-suppressed">
                  <summary className="cursor-pointer">{report.suppressed.count} suppressed</summary>
                  <ul className="mt-1 space-y-0.5">
                    {report.suppressed.by.map((b) => (
                      <li key={b.by}>
                        {b.count} by {b.by}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </Card>
            <FilterBar>
              <SelectFilter
                label="Namespace"
                value={state.namespace}
                options={namespaces.map((n) => ({ value: n, label: n }))}
                onChange={(v) => update({ namespace: v })}
                testId="filter-namespace"
              />
              <SelectFilter
                label="Code"
                value={state.code}
                options={report.catalog.map((c) => ({
                  value: c.code,
                  label: `${c.code} ${c.title}`,
                }))}
                onChange={(v) => update({ code: v })}
                testId="filter-code"
              />
              <SelectFilter
                label="Severity"
                value={state.severity}
                options={['error', 'warning', 'info'].map((s) => ({ value: s, label: s }))}
                onChange={(v) => update({ severity: v })}
                testId="filter-severity"
              />
            </FilterBar>
            <Card
              title={
                rows.length === 1
                  ? '1 finding, on one object'
                  : `All ${rows.length} findings, one per object`
              }
              testId="findings-card"
            >
              <FindingTable
                // a new filter starts the list from its top again
                key={`${state.namespace ?? ''}|${state.code ?? ''}|${state.severity ?? ''}`}
                rows={rows}
                titles={titles}
                domains={domains}
              />
            </Card>
          </div>
        );
      }}
    </QueryBoundary>
  );
}

type Comparison = NonNullable<FindingsReport['istioctl']>;

/** An archive's own istioctl analyze messages beside meshdx's findings of the codes it claims. */
function IstioctlBeside({ c }: { c: Comparison }) {
  const msg = (m: Comparison['agreed'][number]) =>
    `${m.code} ${m.kind} ${m.namespace ? `${m.namespace}/` : ''}${m.name}: ${m.message}`;
  const parts: [string, string, string[]][] = [
    ['agreed', 'agreed', c.agreed.map(msg)],
    ['only-istioctl', 'only istioctl', c.onlyIstioctl.map(msg)],
    [
      'only-meshdx',
      'only meshdx',
      c.onlyMeshdx.map(
        (f) =>
          `${f.code} ${f.subject.kind} ${f.subject.namespace ? `${f.subject.namespace}/` : ''}${f.subject.name}`,
      ),
    ],
    ['not-claimed', 'istioctl codes meshdx does not check', c.notClaimed.map(msg)],
  ];
  return (
    <details className="mt-2 text-xs text-slate-600" data-testid="findings-istioctl">
      <summary className="cursor-pointer">
        Beside {c.source}: {c.agreed.length} agreed, {c.onlyIstioctl.length} only istioctl,{' '}
        {c.onlyMeshdx.length} only meshdx
        {c.unreadLines > 0 ? `, ${c.unreadLines} lines not read` : ''}
      </summary>
      {parts.map(([id, label, rows]) =>
        rows.length > 0 ? (
          <div key={id} className="mt-1" data-testid={`istioctl-${id}`}>
            <div className="font-medium">{label}</div>
            <ul className="space-y-0.5 pl-3">
              {rows.map((r, i) => (
                <li key={`${id}-${i}`}>{r}</li>
              ))}
            </ul>
          </div>
        ) : null,
      )}
    </details>
  );
}
