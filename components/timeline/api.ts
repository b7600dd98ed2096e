/**
 * The Timelines view's edge: a page of the fleet (GET /api/timelines) and one pod's timeline
 * (GET /api/timelines/NS/NAME), the keys its page prefetches, and the wire types its
 * components read.
 */
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

export type {
  DrainOrderView,
  FixSchema,
  GanttMarkerView,
  InjectionInfo,
  PodGanttView,
  PodTimelineView,
  TimelineFleet,
  TimelineFleetRow,
  TimelinePagedFleet,
  WorkloadFix,
  WorkloadMode,
} from '../../lib/api/timelines';
export type { FindingGroup } from '../../lib/api/findings';

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
