import { queryOptions } from '@tanstack/react-query';
import { PodTimelineViewSchema, TimelineFleetSchema, timelineKeys } from '../../lib/api/timelines';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';

/** The Timelines screen's queries (the server page prefetches the same keys). */
export const timelineFleetQuery = (context: string | null) =>
  queryOptions({
    queryKey: [...timelineKeys.fleet(), context ?? ''] as const,
    queryFn: () =>
      fetchJson(withContext('/api/timelines', context), (d) => TimelineFleetSchema.parse(d)),
    staleTime: 5_000,
    refetchInterval: 15_000,
  });

export const podTimelineQuery = (context: string | null, namespace: string, name: string) =>
  queryOptions({
    queryKey: [...timelineKeys.pod(namespace, name), context ?? ''] as const,
    queryFn: () =>
      fetchJson(
        withContext(
          `/api/timelines/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
          context,
        ),
        (d) => PodTimelineViewSchema.parse(d),
      ),
    staleTime: 5_000,
  });
