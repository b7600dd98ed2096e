import { queryOptions } from '@tanstack/react-query';
import { ScopingViewSchema } from '../../lib/api/scoping-view';
import { fetchJson } from '../data/fetchJson';

export const SCOPING_KEY = ['scoping'] as const;

export const scopingQuery = () =>
  queryOptions({
    queryKey: SCOPING_KEY,
    queryFn: () => fetchJson('/api/scoping', (d) => ScopingViewSchema.parse(d)),
    staleTime: 15_000,
    retry: 0,
  });
