/**
 * The Findings view's edge: its query (GET /api/findings, prefetched by its page and by
 * Overview's) and the wire types its components read (its follow of the configuration:
 * useFindingsFollow.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { FindingsReportSchema } from '../../lib/api/findings';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

export type { FindingGroup, FindingsReport } from '../../lib/api/findings';

export const findingsQuery = (context: string | null) =>
  queryOptions({
    queryKey: ['findings', context ?? ''] as const,
    queryFn: () =>
      fetchJson(withContext('/api/findings', context), (d) => FindingsReportSchema.parse(d)),
    staleTime: 5_000,
    // a first answer names the analyses still running: asked again until the report is whole
    refetchInterval: (q) => (q.state.data?.late && q.state.data.late.length > 0 ? 1_000 : false),
  });
