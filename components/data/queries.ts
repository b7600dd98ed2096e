import { queryOptions } from '@tanstack/react-query';
import { ClusterInfoSchema } from '../../lib/api/cluster';
import { FindingsReportSchema } from '../../lib/api/findings';
import { InventorySchema, PodListSchema } from '../../lib/api/inventory';
import { podListQueryString, type PodListQuery } from '../../lib/inventory/pod-list';
import { linkTo, withContext } from '../../lib/api/context';
import { refetchWhileLate } from '../../lib/api/late';
import { fetchJson } from './fetchJson';

/**
 * Query keys and fetchers live together. Server pages prefetch the same keys with the use case
 * as queryFn; client components read them and `select` the slice they show.
 */
export const clusterQuery = (context: string | null) =>
  queryOptions({
    queryKey: ['cluster', context ?? ''] as const,
    queryFn: () =>
      fetchJson(withContext('/api/cluster', context), (d) => ClusterInfoSchema.parse(d)),
    staleTime: 10_000,
  });

export const inventoryQuery = (context: string | null) =>
  queryOptions({
    queryKey: ['inventory', context ?? ''] as const,
    queryFn: () =>
      fetchJson(withContext('/api/inventory', context), (d) => InventorySchema.parse(d)),
    staleTime: 5_000,
    refetchInterval: (q) => refetchWhileLate(q.state.data, 15_000),
  });

/** Live pods matching a screen's filters, capped on the server (GET /api/pods). */
export const podListQuery = (context: string | null, q: PodListQuery) => {
  const qs = podListQueryString(q);
  return queryOptions({
    queryKey: ['pods', context ?? '', qs] as const,
    queryFn: () => fetchJson(linkTo('/api/pods', qs, context), (d) => PodListSchema.parse(d)),
    staleTime: 5_000,
  });
};

export const findingsQuery = (context: string | null) =>
  queryOptions({
    queryKey: ['findings', context ?? ''] as const,
    queryFn: () =>
      fetchJson(withContext('/api/findings', context), (d) => FindingsReportSchema.parse(d)),
    staleTime: 5_000,
    // a first answer names the analyses still running: asked again until the report is whole
    refetchInterval: (q) => (q.state.data?.late && q.state.data.late.length > 0 ? 2_000 : false),
  });
