import { queryOptions } from '@tanstack/react-query';
import {
  PodTimelineViewSchema,
  TimelinePagedFleetSchema,
  timelineKeys,
} from '../../lib/api/timelines';
import { timelineQueryString, type TimelineQuery } from '../../lib/timeline/fleet-page';
import { linkTo } from '../../lib/api/context';
import { refetchWhileLate } from '../../lib/api/late';
import { fetchJson } from '../data/fetchJson';
import { podPath } from '../../lib/refs/pod-ref';

/** The Timelines screen's queries (the server page prefetches the same keys). */
/** One page of the fleet, filtered and sorted on the server (the query is the screen's URL state). */
export const timelineFleetQuery = (context: string | null, query: TimelineQuery) => {
  const qs = timelineQueryString(query);
  return queryOptions({
    queryKey: [...timelineKeys.fleet(), context ?? '', qs] as const,
    queryFn: () =>
      fetchJson(linkTo('/api/timelines', qs, context), (d) => TimelinePagedFleetSchema.parse(d)),
    staleTime: 5_000,
    refetchInterval: (q) => refetchWhileLate(q.state.data, 15_000),
    // the page being replaced stays on screen while the next one loads
    placeholderData: (prev) => prev,
  });
};

/** One pod's timeline: with a uid, that pod of the name (a deleted one whose namesake runs). */
export const podTimelineQuery = (
  context: string | null,
  namespace: string,
  name: string,
  uid: string | null,
) =>
  queryOptions({
    queryKey: [...timelineKeys.pod(namespace, name, uid), context ?? ''] as const,
    queryFn: () =>
      fetchJson(
        linkTo(
          `/api/timelines/${podPath({ namespace, name })}`,
          new URLSearchParams(uid ? { uid } : {}),
          context,
        ),
        (d) => PodTimelineViewSchema.parse(d),
      ),
    staleTime: 5_000,
  });
