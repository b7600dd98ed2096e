import { viewPage, type SearchParams } from '@/app/_lib/page-opening';
import { FleetView } from '@/components/proxies/FleetView';
import { fleetQuery } from '@/components/proxies/api';
import { runtimeFor } from '@/server/runtime/registry';
import { cachedFleet, withApi } from '@/server/screens/proxies/fleet';
import { FLEET_SORT_KEYS, fleetQueryOfView, pageFleet } from '@/lib/proxies/page';
import { badParameter } from '@/lib/api/request-error';
import { pageProblem } from '@/server/screens/page-params';
import { parseViewState } from '@/lib/api/viewstate';

export const dynamic = 'force-dynamic';

export default async function Page({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return viewPage(searchParams, {
    route: '/proxies',
    title: 'Proxies',
    subtitle:
      "Every Istio proxy's config size: clusters, listeners and memory, the Sidecar that scopes it, and its sync state. Unscoped proxies carry the whole mesh.",
    check: (q) => {
      const sort = q.values.sort;
      if (sort === undefined || (FLEET_SORT_KEYS as readonly string[]).includes(sort)) return null;
      return pageProblem(
        badParameter(
          'sort',
          `cannot sort by ${JSON.stringify(sort)}`,
          `one of ${FLEET_SORT_KEYS.join(', ')}`,
        ),
      );
    },
    prefetch: (scope, q) => {
      const query = fleetQueryOfView(parseViewState('proxies', q.params));
      // a fresh fleet is served at once (the page the URL asks for); otherwise the page streams it
      let fresh = null;
      try {
        const rt = runtimeFor(scope);
        const cached = cachedFleet(rt);
        fresh = cached ? pageFleet(withApi(rt, cached), query) : null;
      } catch {
        // no such cluster or context: the browser's request shows the error with its fix
      }
      const page = fresh;
      return page
        ? [{ ...fleetQuery(scope.context, query), queryFn: () => Promise.resolve(page) }]
        : [];
    },
    view: <FleetView />,
  });
}
