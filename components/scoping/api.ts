/**
 * The Scoping view's edge: the view (GET /api/scoping) and a namespace's or workload's bloat
 * over time (GET /api/scoping/bloat), and the wire types its components read.
 */
import { queryOptions } from '@tanstack/react-query';
import { BloatViewSchema } from '../../lib/api/bloat-view';
import { ScopingViewSchema } from '../../lib/api/scoping-view';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

export type { BloatView } from '../../lib/api/bloat-view';
export type {
  GeneratedSidecar,
  ScopingNamespaceRow,
  ScopingReport,
  WorkloadRow,
} from '../../lib/api/scoping';
export type { ScopingView } from '../../lib/api/scoping-view';

export const scopingKey = (context: string | null) => ['scoping', context ?? ''] as const;

export const scopingQuery = (context: string | null) =>
  queryOptions({
    queryKey: scopingKey(context),
    queryFn: () =>
      fetchJson(withContext('/api/scoping', context), (d) => ScopingViewSchema.parse(d)),
    staleTime: 15_000,
    retry: 0,
  });

export const bloatKey = (context: string | null, namespace: string, workload: string | null) =>
  ['scoping-bloat', context ?? '', namespace, workload ?? ''] as const;

/** A namespace's (or workload's) clusters per proxy over the last hour, from Prometheus. */
export const bloatQuery = (context: string | null, namespace: string, workload: string | null) =>
  queryOptions({
    queryKey: bloatKey(context, namespace, workload),
    queryFn: () => {
      const sp = new URLSearchParams({ namespace });
      if (workload) sp.set('workload', workload);
      return fetchJson(withContext(`/api/scoping/bloat?${sp.toString()}`, context), (d) =>
        BloatViewSchema.parse(d),
      );
    },
    staleTime: 15_000,
    retry: 0,
  });
