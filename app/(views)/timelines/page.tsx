import { preload } from 'react-dom';
import { viewPage, type SearchParams } from '@/app/_lib/page-opening';
import {
  TIMELINE_SORT_KEYS,
  timelineQueryOfView,
  timelineQueryString,
} from '@/lib/timeline/fleet-page';
import { badParameter } from '@/lib/api/request-error';
import { pageProblem } from '@/server/screens/page-params';
import { podTimelineQuery, timelineFleetQuery } from '@/components/timeline/api';
import { TimelinesView } from '@/components/timeline/TimelinesView';
import { parseViewState } from '@/lib/api/viewstate';
import type { Prefetch } from '@/server/prefetch';
import { linkTo } from '@/lib/api/context';
import { tryParsePodRef } from '@/lib/refs/pod-ref';
import {
  getPodTimeline,
  timelinesPageNow,
  warmTimelines,
} from '@/server/screens/timelines/timelines';
import type { TimelinePagedFleet } from '@/lib/api/timelines';

export default async function Page({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return viewPage(searchParams, {
    route: '/timelines',
    title: 'Timelines',
    subtitle:
      "Every meshed pod's start against its proxy: which workloads race their sidecar, which drain too short, and the fix to copy. Pick a pod for its timeline.",
    windowed: true,
    check: (q) => {
      const sort = q.values.sort;
      if (sort === undefined || TIMELINE_SORT_KEYS.includes(sort)) return null;
      return pageProblem(
        badParameter(
          'sort',
          `cannot sort by ${JSON.stringify(sort)}`,
          `one of ${TIMELINE_SORT_KEYS.join(', ')}`,
        ),
      );
    },
    prefetch: (scope, q) => {
      const ctx = scope.context;
      const state = parseViewState('timelines', q.params);
      const query = timelineQueryOfView(state);
      const queries: Prefetch[] = [];
      // With the cluster's pods and Events listed, the fleet's first page is rendered on the
      // server: its table is on screen with the HTML, before any script runs, and the browser
      // does not ask for it again. While a first list still runs, the browser asks for it while
      // it loads the scripts (the answer then says how far the list got). A failure (even a
      // synchronous one: an unknown context) is the browser's request's to show.
      let first: Promise<TimelinePagedFleet> | null = null;
      try {
        first = timelinesPageNow(scope, query);
      } catch {
        // the browser's request shows it
      }
      if (first) {
        const page = first;
        queries.push({ ...timelineFleetQuery(ctx, query), queryFn: () => page });
      } else {
        const qs = timelineQueryString(query);
        preload(linkTo('/api/timelines', qs, ctx), {
          as: 'fetch',
          crossOrigin: 'anonymous',
        });
        // the server's watch-fed cache is started (and its analysis warmed, once the pods are
        // listed)
        try {
          warmTimelines(scope);
        } catch {
          // the browser's request shows it
        }
      }
      const pod = state.pod ? tryParsePodRef(state.pod) : null;
      if (pod) {
        const { namespace: ns, name } = pod;
        const uid = state.uid ?? null;
        queries.push({
          ...podTimelineQuery(ctx, ns, name, uid),
          queryFn: () => getPodTimeline(scope, ns, name, uid),
        });
      }
      return queries;
    },
    // Awaited here and rendered without a Suspense boundary of its own (the page is dynamic, so
    // the view's search params need none): React sends a boundary's content that large (the
    // cards and the table, some 100 KB of HTML) apart from the page and reveals it in batches,
    // some 300 ms after its HTML came; a warm fleet's page takes tens of ms
    suspense: false,
    view: <TimelinesView />,
  });
}
