import { queryOptions } from '@tanstack/react-query';
import { PodTimelineViewSchema, TimelineFleetSchema, timelineKeys } from '../../lib/api/timelines';
import { fetchJson } from '../data/fetchJson';

/** The Timelines screen's queries (the server page prefetches the same keys). */
export const timelineFleetQuery = () =>
  queryOptions({
    queryKey: timelineKeys.fleet(),
    queryFn: () => fetchJson('/api/timelines', (d) => TimelineFleetSchema.parse(d)),
    staleTime: 5_000,
    refetchInterval: 15_000,
  });

export const podTimelineQuery = (namespace: string, name: string) =>
  queryOptions({
    queryKey: timelineKeys.pod(namespace, name),
    queryFn: () =>
      fetchJson(
        `/api/timelines/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
        (d) => PodTimelineViewSchema.parse(d),
      ),
    staleTime: 5_000,
  });
