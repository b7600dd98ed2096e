import { queryOptions } from '@tanstack/react-query';
import { ClusterInfoSchema } from '../../lib/api/cluster';
import { FindingsReportSchema } from '../../lib/api/findings';
import { InventorySchema } from '../../lib/api/inventory';
import { fetchJson } from './fetchJson';

/**
 * Query keys and fetchers live together. Server pages prefetch the same keys with the use case
 * as queryFn; client components read them and `select` the slice they show.
 */
export const clusterQuery = () =>
  queryOptions({
    queryKey: ['cluster'] as const,
    queryFn: () => fetchJson('/api/cluster', (d) => ClusterInfoSchema.parse(d)),
    staleTime: 10_000,
  });

export const inventoryQuery = () =>
  queryOptions({
    queryKey: ['inventory'] as const,
    queryFn: () => fetchJson('/api/inventory', (d) => InventorySchema.parse(d)),
    staleTime: 5_000,
    refetchInterval: 15_000,
  });

export const findingsQuery = () =>
  queryOptions({
    queryKey: ['findings'] as const,
    queryFn: () => fetchJson('/api/findings', (d) => FindingsReportSchema.parse(d)),
    staleTime: 5_000,
  });
