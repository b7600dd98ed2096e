'use client';

import { useQuery } from '@tanstack/react-query';
import { subjectKey } from '../../lib/refs/object-ref';
import { firstAndMore } from '../../lib/text-list';
import { QueryBoundary } from '../data/QueryBoundary';
import { useClusterContext } from '../data/useClusterContext';
import { CopyButton } from '../timeline/CopyButton';
import { Badge, Card } from '../ui/Card';
import { ambientQuery, type NamespaceReadiness } from './api';

const STATUS_TONE = {
  migrated: 'good',
  'mid-migration': 'warn',
  blocked: 'bad',
  'needs-work': 'warn',
  ready: 'good',
} as const;
const SEVERITY_TONE = { error: 'bad', warning: 'warn', info: 'info' } as const;

/** Workloads named in a sentence: the first few, then how many more (a namespace may have hundreds). */
const some = (names: readonly string[]) => firstAndMore(names, 5);

function Gains({ n }: { n: NamespaceReadiness }) {
  const g = n.gains;
  const parts: string[] = [];
  if (g.raceWorkloads.length) parts.push(`startup races go away (${some(g.raceWorkloads)})`);
  if (g.drainWorkloads.length)
    parts.push(`shutdown drain problems go away (${some(g.drainWorkloads)})`);
  if (g.sidecarProxies > 0) {
    parts.push(
      g.clustersCarried === null
        ? `${g.sidecarProxies} sidecars go`
        : `${g.sidecarProxies} sidecars go, with the ${g.clustersCarried.toLocaleString('en-US')} Envoy clusters ${g.clustersMeasured} of them carry today`,
    );
  }
  if (parts.length === 0) return null;
  return (
    <p className="text-xs text-emerald-800" data-testid="ambient-gains">
      Better in ambient: {parts.join('; ')}.
    </p>
  );
}

function NamespaceBlock({ n }: { n: NamespaceReadiness }) {
  return (
    <li
      className="border-t border-slate-100 py-2"
      data-ambient-ns={n.namespace}
      data-status={n.status}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{n.namespace}</span>
        <Badge tone={STATUS_TONE[n.status]}>{n.status}</Badge>
        <span className="text-xs text-slate-600">
          {n.pods.sidecar} sidecar, {n.pods.ambient} ambient, {n.pods.none} outside the mesh
          {n.waypoint ? `; waypoint ${n.waypoint}` : ''}
        </span>
      </div>
      <Gains n={n} />
      {n.findings.length > 0 && (
        <ul className="mt-1 space-y-1">
          {n.findings.map((f) => (
            <li
              key={`${f.code}|${subjectKey(f.subject.kind, f.subject.namespace, f.subject.name)}`}
              data-code={f.code}
              className="text-xs"
            >
              <Badge tone={SEVERITY_TONE[f.severity]}>{f.code}</Badge>{' '}
              <span className="font-medium">
                {f.subject.kind} {f.subject.name}
              </span>
              {f.fix && <span className="text-slate-600">: {f.fix.why}</span>}
              {f.fix?.yaml && (
                <details className="mt-0.5">
                  <summary className="cursor-pointer text-sky-700">what to write</summary>
                  <div className="relative">
                    <pre className="overflow-x-auto rounded bg-slate-50 p-2 font-mono text-[11px]">
                      {f.fix.yaml}
                    </pre>
                    <CopyButton text={f.fix.yaml} />
                  </div>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** Per namespace: what moving to ambient blocks, changes and improves. */
export function MigrationCard({ namespace }: { namespace: string | null }) {
  const ctx = useClusterContext();
  const query = useQuery(ambientQuery(ctx));
  return (
    <Card title="Ambient migration readiness (per namespace)" testId="migration-card">
      <QueryBoundary query={query} what="the ambient readiness">
        {(view) => {
          const rows = namespace
            ? view.namespaces.filter((n) => n.namespace === namespace)
            : view.namespaces;
          return (
            <div>
              <ul className="max-h-[64rem] overflow-y-auto">
                {rows.map((n) => (
                  <NamespaceBlock key={n.namespace} n={n} />
                ))}
              </ul>
              {view.notes.length > 0 && (
                <p className="mt-2 text-xs text-slate-500" data-testid="migration-notes">
                  Not read: {view.notes.join('; ')}.
                </p>
              )}
            </div>
          );
        }}
      </QueryBoundary>
    </Card>
  );
}
