import { queryOptions } from '@tanstack/react-query';
import { AmbientViewSchema, ambientKeys } from '../../lib/api/ambient';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

export const ambientQuery = (context: string | null) =>
  queryOptions({
    queryKey: ambientKeys.view(context),
    queryFn: () =>
      fetchJson(withContext('/api/ambient', context), (d) => AmbientViewSchema.parse(d)),
    staleTime: 10_000,
    refetchInterval: 30_000,
  });
