/**
 * The inventory's edge: the namespaces and pods (GET /api/inventory, Overview's view model, also
 * read by Incidents) and the paged pod list (GET /api/pods: Incidents' client picker and IP
 * holders), and the wire types the namespace table and the pod page read. The pod page itself
 * is rendered on the server (app/(views)/pods/[namespace]/[name]/page.tsx), with no query.
 */
import { queryOptions } from '@tanstack/react-query';
import { InventorySchema, PodListSchema } from '../../lib/api/inventory';
import { podListQueryString, type PodListQuery } from '../../lib/inventory/pod-list';
import { linkTo, withContext } from '../../lib/api/context';
import { refetchWhileLate } from '../../lib/api/late';
import { fetchJson } from '../data/fetchJson';

export type { Inventory, NamespaceRow, PodDetail, PodRow } from '../../lib/api/inventory';

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
