/**
 * Overview's edge: the ambient card's query (GET /api/ambient) and the wire types its cards read.
 * Its other two queries belong to the views they come from and are read from there: the
 * inventory (../inventory/api) and the findings (../findings/api).
 */
import { queryOptions } from '@tanstack/react-query';
import { AmbientViewSchema, ambientKeys } from '../../lib/api/ambient';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

export type { NamespaceReadiness } from '../../lib/api/ambient';
export type { Inventory } from '../../lib/api/inventory';

export const ambientQuery = (context: string | null) =>
  queryOptions({
    queryKey: ambientKeys.view(context),
    queryFn: () =>
      fetchJson(withContext('/api/ambient', context), (d) => AmbientViewSchema.parse(d)),
    staleTime: 10_000,
    refetchInterval: 30_000,
  });
