import { queryOptions } from '@tanstack/react-query';
import { IncidentsViewSchema } from '../../lib/api/incidents';
import { viewStateQuery, type ViewState } from '../../lib/api/viewstate';
import { fetchJson } from '../data/fetchJson';

type State = ViewState<'incidents'>;

/** Stable key: the URL state with empty values left out, in a fixed order. */
export function incidentsKey(state: State): readonly ['incidents', string] {
  return ['incidents', viewStateQuery(state as Record<string, string | undefined>)] as const;
}

export const incidentsQuery = (state: State) =>
  queryOptions({
    queryKey: incidentsKey(state),
    queryFn: () =>
      fetchJson(
        `/api/incidents${viewStateQuery(state as Record<string, string | undefined>)}`,
        (d) => IncidentsViewSchema.parse(d),
      ),
    staleTime: 15_000,
  });
