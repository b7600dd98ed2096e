import { viewPage, type SearchParams } from '@/app/_lib/page-opening';
import { inventoryQuery, podListQuery } from '@/components/inventory/api';
import { IncidentsView } from '@/components/incidents/IncidentsView';
import { clientPickerQuery, incidentsQuery } from '@/components/incidents/api';
import { parseViewState } from '@/lib/api/viewstate';
import { getIncidents } from '@/server/screens/incidents/incidents';
import { getInventory, getPodList } from '@/server/screens/overview/inventory';

export default async function Page({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return viewPage(searchParams, {
    route: '/incidents',
    title: '503 Incidents',
    subtitle:
      "Failing requests from the client proxies' access logs, each tied to the pod that held the upstream IP at that moment — even when it is gone — and the config that would have stopped them.",
    subtitleOnProblems: true,
    windowed: true,
    prefetch: (scope, q) => {
      const ctx = scope.context;
      const state = parseViewState('incidents', q.params);
      return [
        { ...inventoryQuery(ctx), queryFn: () => getInventory(scope) },
        {
          ...podListQuery(ctx, clientPickerQuery(state.namespace)),
          queryFn: () => getPodList(scope, clientPickerQuery(state.namespace)),
        },
        { ...incidentsQuery(ctx, state), queryFn: () => getIncidents(scope, state) },
      ];
    },
    view: <IncidentsView />,
  });
}
