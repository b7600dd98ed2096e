'use client';

import type { FindingGroup } from './api';
import { Badge } from '../ui/Card';
import { PodLink } from '../inventory/PodLink';
import { findingLinks } from '../../lib/findings/links';
import { FindingLinks } from './FindingLinks';

const tone = { error: 'bad', warning: 'warn', info: 'info' } as const;
const SCOPE = {
  mesh: 'mesh-wide',
  namespace: 'per namespace',
  workload: 'per workload',
  object: 'per object',
} as const;

const who = (s: FindingGroup['objects'][number]['subject']) =>
  `${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`;

/**
 * Findings that share a code, one row each: how many objects, whether harm was seen, the fix
 * once at the scope that fixes them all, and the objects inside (opened on demand).
 */
export function GroupList({
  groups,
  domains,
  istio,
}: {
  groups: FindingGroup[];
  /** Each code's Istio versions and whether they take in the cluster's istiod, when known. */
  istio?: (code: string) => string | undefined;
  /**
   * Each code's domain (its catalog entry's): the views that show its findings, linked from
   * each object. Absent (a view's own groups, as on Timelines): no links to other views.
   */
  domains?: Map<string, string | undefined>;
}) {
  if (groups.length === 0) return <p className="text-sm text-slate-600">No findings match.</p>;
  return (
    <ul className="divide-y divide-slate-100" data-testid="finding-groups">
      {groups.map((g) => (
        <li key={g.key} className="py-2 text-sm" data-group-code={g.code}>
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={tone[g.severity]}>{g.count}</Badge>
            <span className="font-mono text-xs">{g.code}</span>
            <span className="font-medium">{g.title}</span>
            <span className="text-xs text-slate-500" data-testid="group-harm">
              {g.harm === 'observed'
                ? `harm seen on ${g.harmed} of ${g.count}`
                : `exposure only: no harm seen on ${g.count === 1 ? 'it' : `any of ${g.count}`}`}
            </span>
            {istio?.(g.code) && (
              <span className="text-xs text-slate-500" data-testid="group-istio">
                {istio(g.code)}
              </span>
            )}
          </div>
          {g.fix && (
            <details className="mt-1" data-testid="group-fix">
              <summary className="cursor-pointer text-xs text-sky-700">
                Fix ({SCOPE[g.fix.scope]}): {g.fix.why}
              </summary>
              {g.fix.yaml && (
                <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-100">
                  {g.fix.yaml}
                </pre>
              )}
            </details>
          )}
          {g.rest.map((r, i) => (
            <details key={i} className="mt-1" data-testid="group-rest-fix">
              <summary className="cursor-pointer text-xs text-sky-700">
                For {r.subjects.length === 1 ? who(r.subjects[0]!) : `${r.subjects.length} more`}:{' '}
                {r.fix.why}
              </summary>
              {r.fix.yaml && (
                <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-100">
                  {r.fix.yaml}
                </pre>
              )}
            </details>
          ))}
          <details className="mt-1" data-testid="group-objects">
            <summary className="cursor-pointer text-xs text-slate-600">
              {g.count} affected {g.count === 1 ? 'object' : 'objects'}
            </summary>
            <ul className="mt-1 space-y-0.5 pl-3 text-xs">
              {g.objects.map((o, i) => (
                <li key={`${who(o.subject)}-${o.part?.name ?? ''}-${i}`}>
                  <Badge tone={tone[o.severity]}>{o.severity}</Badge>{' '}
                  {o.subject.kind === 'Pod' && o.subject.namespace ? (
                    <>
                      Pod <PodLink pod={{ namespace: o.subject.namespace, name: o.subject.name }} />
                    </>
                  ) : (
                    who(o.subject)
                  )}
                  {o.part ? ` ${o.part.kind} ${o.part.name}` : ''}
                  {o.harmed && <span className="text-red-700"> (harm seen)</span>}
                  {domains && (
                    <FindingLinks
                      links={findingLinks({ code: g.code, ...o }, domains.get(g.code))}
                    />
                  )}
                </li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ul>
  );
}
