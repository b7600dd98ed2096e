import { queryOptions } from '@tanstack/react-query';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { viewStateQuery, type ViewState } from '../../lib/api/viewstate';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';
import type { PodListQuery } from '../../lib/inventory/pod-list';

type State = ViewState<'incidents'>;

/** Stable key: the URL state with empty values left out, in a fixed order. */
export function incidentsKey(
  context: string | null,
  state: State,
): readonly ['incidents', string, string] {
  return [
    'incidents',
    context ?? '',
    viewStateQuery(state as Record<string, string | undefined>),
  ] as const;
}

export const incidentsQuery = (context: string | null, state: State) =>
  queryOptions({
    queryKey: incidentsKey(context, state),
    queryFn: () =>
      fetchJson(
        withContext(
          `/api/incidents${viewStateQuery(state as Record<string, string | undefined>)}`,
          context,
        ),
        (d) => IncidentsViewSchema.parse(d),
      ),
    staleTime: 15_000,
  });

const CLIENT_PICKER_MAX = 1_000;

/** The client proxy picker's pods: those with a proxy, in the chosen namespace if any. */
export const clientPickerQuery = (namespace: string | undefined): PodListQuery => ({
  ...(namespace ? { namespace } : {}),
  meshed: true,
  limit: CLIENT_PICKER_MAX,
});
