import { queryOptions } from '@tanstack/react-query';
import { ScopingViewSchema } from '../../lib/api/scoping-view';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

export const scopingKey = (context: string | null) => ['scoping', context ?? ''] as const;

export const scopingQuery = (context: string | null) =>
  queryOptions({
    queryKey: scopingKey(context),
    queryFn: () =>
      fetchJson(withContext('/api/scoping', context), (d) => ScopingViewSchema.parse(d)),
    staleTime: 15_000,
    retry: 0,
  });
