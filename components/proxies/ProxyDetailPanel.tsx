'use client';

import { useQuery } from '@tanstack/react-query';
import { QueryBoundary } from '../data/QueryBoundary';
import { Card } from '../ui/Card';
import { ErrorPanel } from '../ui/ErrorPanel';
import { ClusterTable } from './ClusterTable';
import { count } from './format';
import { configDumpHref, proxyDetailQuery, type ProxyDetail } from './api';
import { useClusterContext } from '../data/useClusterContext';
import { podKey } from '../../lib/refs/pod-ref';

/** Clusters could not be read at all: the counts are unknown, not zero. */
export function clustersUnknown(d: Pick<ProxyDetail, 'errors' | 'clusters' | 'summary'>): boolean {
  return (
    d.summary.unknown !== null ||
    (d.clusters.length === 0 && d.errors.some((e) => e.part === 'clusters'))
  );
}

function Counts({ d }: { d: ProxyDetail }) {
  const s = d.summary;
  const l = d.listeners;
  const r = d.routes;
  const unknown = clustersUnknown(d);
  const usageFailed = d.usage.unknown !== undefined || d.errors.some((e) => e.part === 'usage');
  return (
    <div className="mb-3 grid grid-cols-2 gap-2 text-sm md:grid-cols-4" data-testid="proxy-counts">
      <div>
        {unknown ? (
          <>
            <b>unknown</b> clusters ({s.unknown ?? 'could not be read'})
          </>
        ) : (
          <>
            <b className="tabular-nums">{count(s.total)}</b> clusters: {count(s.service)} service,{' '}
            {count(s.nonService)} static/control-plane
            {(s.warming ?? 0) > 0 && `, ${count(s.warming)} warming`}
          </>
        )}
      </div>
      <div>
        <b>{l ? count(l.static + l.dynamic) : '–'}</b> listeners
        {l && ` (${l.static} static, ${l.dynamic} dynamic)`}
      </div>
      <div>
        <b>{r ? count(r.static + r.dynamic) : '–'}</b> route configs
      </div>
      <div>
        {d.usage.available ? (
          <>
            outbound service clusters: <b>{count(d.usage.used)}</b> used,{' '}
            <b>{count(d.usage.unused)}</b> never used
          </>
        ) : usageFailed || unknown ? (
          `usage: unknown (${d.usage.unknown ?? 'could not be read'})`
        ) : (
          'usage: per-cluster stats unavailable'
        )}
      </div>
    </div>
  );
}

/** One proxy: the istioctl cluster table, counts per destination namespace, raw JSON. */
export function ProxyDetailPanel({ namespace, name }: { namespace: string; name: string }) {
  const ctx = useClusterContext();
  const q = useQuery(proxyDetailQuery(ctx, namespace, name));
  const raw = configDumpHref(ctx, namespace, name);
  return (
    <Card
      title={`Proxy ${podKey(namespace, name)}`}
      testId="proxy-detail"
      actions={
        <a
          className="text-xs text-sky-700 underline"
          href={raw}
          download
          data-testid="raw-download"
        >
          Download clusters JSON
        </a>
      }
    >
      <QueryBoundary query={q} what={`the clusters of ${podKey(namespace, name)}`}>
        {(d) => (
          <>
            <Counts d={d} />
            {d.errors.map((e) => (
              <div key={`${e.part}:${e.message}`} className="mb-2">
                <ErrorPanel title={`Could not read ${e.part}`} message={e.message} />
              </div>
            ))}
            {!clustersUnknown(d) && (
              <>
                <div
                  className="mb-3 flex flex-wrap gap-2 text-xs text-slate-600"
                  data-testid="clusters-by-namespace"
                >
                  Outbound clusters by destination namespace:
                  {d.byNamespace.map((n) => (
                    <span key={n.namespace} className="rounded bg-slate-100 px-1.5 py-0.5">
                      {n.namespace}: {count(n.clusters)}
                    </span>
                  ))}
                </div>
                <ClusterTable rows={d.clusters} />
              </>
            )}
          </>
        )}
      </QueryBoundary>
    </Card>
  );
}
