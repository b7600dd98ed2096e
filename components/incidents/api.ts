/**
 * The Incidents view's edge: the view (GET /api/incidents), the client picker's pod list (the
 * inventory's GET /api/pods, ../inventory/api), an uploaded log's analysis (POST
 * /api/incidents/upload), the live follow's URL and events (GET /api/incidents/live, server-sent
 * events of lib/api/incidents-live.ts), and the wire types its components read.
 */
import { queryOptions } from '@tanstack/react-query';
import { IncidentsViewSchema, type IncidentsView } from '../../lib/api/incidents';
import { LiveBatchSchema, LiveFailureSchema, type LiveBatch } from '../../lib/api/incidents-live';
import { ApiErrorSchema } from '../../lib/api/errors';
import { viewStateQuery, type ViewState } from '../../lib/api/viewstate';
import { withContext } from '../../lib/api/context';
import { fetchJson } from '../data/fetchJson';
import type { PodListQuery } from '../../lib/inventory/pod-list';

export type { IncidentsView, Marker, UpstreamPodRow } from '../../lib/api/incidents';
export type { LiveBatch, LiveProblem } from '../../lib/api/incidents-live';
export type { PodRow } from '../../lib/api/inventory';

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

/** What an uploaded log came back as: its Incidents view, or the server's refusal. */
export type UploadAnswer =
  { kind: 'view'; view: IncidentsView } | { kind: 'error'; message: string; hint?: string };

/**
 * Sends a pasted or uploaded access log to be analysed against the pod-IP history, with the
 * view's window and filters (`format`: the log's format, when the user names one). Throws when
 * the server cannot be reached or its view does not parse.
 */
export async function uploadIncidentsLog(
  context: string | null,
  state: State,
  format: string | undefined,
  body: string,
): Promise<UploadAnswer> {
  const q = viewStateQuery({
    from: state.from,
    to: state.to,
    service: state.service,
    ip: state.ip,
    format,
  });
  const res = await fetch(withContext(`/api/incidents/upload${q}`, context), {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body,
  });
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = ApiErrorSchema.safeParse(data);
    return {
      kind: 'error',
      message: err.success ? err.data.error.message : `upload answered ${res.status}`,
      hint: err.success ? err.data.error.hint : undefined,
    };
  }
  return { kind: 'view', view: IncidentsViewSchema.parse(data) };
}

/**
 * Opens the live follow's event stream from `since` (RFC 3339) on; `filters`: the view's client,
 * service, ip and namespace as viewStateQuery writes them (`?client=...`, or '').
 */
export function openLiveIncidents(
  context: string | null,
  filters: string,
  since: string,
): EventSource {
  const q = filters;
  return new EventSource(
    withContext(
      `/api/incidents/live${q}${q ? '&' : '?'}since=${encodeURIComponent(since)}`,
      context,
    ),
  );
}

/** A `batch` event's data, or null when it is not one. */
export function liveBatchOf(data: string): LiveBatch | null {
  const parsed = LiveBatchSchema.safeParse(JSON.parse(data));
  return parsed.success ? parsed.data : null;
}

/** A `failure` event's message, or null when its data says none. */
export function liveFailureOf(data: string): string | null {
  const m = LiveFailureSchema.safeParse(JSON.parse(data));
  return m.success ? m.data.message : null;
}
