'use client';

import { useQuery } from '@tanstack/react-query';
import { clusterQuery } from './api';
import { useClusterContext } from '../data/useClusterContext';
import { ArchiveNote } from './ArchiveNote';
import { ClusterBadge } from './ClusterBadge';
import { ContextPicker } from './ContextPicker';
import { WhoAmI } from './WhoAmI';

/** The header's right side: which cluster this page shows (from `?context=`), and the picker. */
export function ClusterHeader() {
  const ctx = useClusterContext();
  const q = useQuery({ ...clusterQuery(ctx), refetchInterval: 15_000 });
  return (
    <div className="ml-auto flex flex-wrap items-center justify-end gap-x-4 gap-y-1">
      <WhoAmI />
      <ContextPicker current={ctx} />
      {q.data?.archive && <ArchiveNote archive={q.data.archive} />}
      {q.data ? (
        <ClusterBadge info={q.data} />
      ) : q.error ? (
        <ClusterBadge
          info={{
            label: ctx ?? 'cluster',
            source: 'none',
            server: '',
            reachable: false,
            error: { code: 'HTTP', message: q.error.message },
          }}
        />
      ) : (
        <span className="text-sm text-slate-400" data-testid="cluster-loading">
          …
        </span>
      )}
    </div>
  );
}
