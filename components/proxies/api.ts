/**
 * The Proxies view's edge: the fleet (GET /api/proxies/fleet, streamed as NDJSON while a scan
 * runs), a proxy's detail (GET /api/proxies/NS/NAME) and a ztunnel's (GET /api/ztunnels/NS/NAME),
 * and the wire types its components read.
 */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  FleetStreamLineSchema,
  ProxyDetailSchema,
  ZtunnelDetailSchema,
  type FleetProgress,
  type FleetView,
} from '../../lib/api/proxies';
import { withContext } from '../../lib/api/context';
import { ApiErrorSchema } from '../../lib/api/errors';
import { fleetQueryString, type FleetQuery } from '../../lib/proxies/page';
import { ApiRequestError, fetchJson } from '../data/fetchJson';
import { podPath } from '../../lib/refs/pod-ref';

export type {
  ClusterRowView,
  DistributionBin,
  FleetProgress,
  FleetView,
  ProxyDetail,
  ProxyFleetRow,
  ZtunnelDetail,
  ZtunnelRow,
} from '../../lib/api/proxies';
export type { MeasuredSum } from '../../lib/api/measured';

export const fleetKey = (context: string | null, query: FleetQuery = {}) =>
  ['proxies', 'fleet', context ?? '', fleetQueryString(query)] as const;

/**
 * Reads GET /api/proxies/fleet?stream=1 (NDJSON): reports each progress line and resolves with
 * the final fleet. One request for the whole screen.
 */
export async function streamFleet(
  context: string | null,
  query: FleetQuery,
  onProgress: (p: FleetProgress) => void,
  signal?: AbortSignal,
): Promise<FleetView> {
  const qs = fleetQueryString(query);
  const url = `/api/proxies/fleet?stream=1${qs ? `&${qs}` : ''}`;
  let res: Response;
  try {
    res = await fetch(withContext(url, context), {
      signal,
      headers: { Accept: 'application/x-ndjson' },
    });
  } catch (e) {
    throw new ApiRequestError(0, 'NETWORK', `meshdx server not reachable: ${(e as Error).message}`);
  }
  if (!res.ok || !res.body) {
    // a refused query (a bad parameter, a namespace not there) is a JSON error naming it
    const err = ApiErrorSchema.safeParse(await res.json().catch(() => null));
    if (err.success) {
      const { code, message, hint } = err.data.error;
      throw new ApiRequestError(res.status, code, message, hint);
    }
    throw new ApiRequestError(res.status, 'HTTP', `fleet scan answered ${res.status}`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buf += value;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).trim();
      buf = buf.slice(nl + 1);
      if (!line) continue;
      const msg = FleetStreamLineSchema.parse(JSON.parse(line));
      if (msg.type === 'progress') onProgress(msg);
      else if (msg.type === 'result') return msg.fleet;
      else throw new ApiRequestError(502, msg.error.code, msg.error.message, msg.error.hint);
    }
    if (done) break;
  }
  throw new ApiRequestError(502, 'STREAM_ENDED', 'the fleet scan stream ended without a result');
}

/**
 * The fleet page the screen shows (filters, sort and page in the key: the server sends only those
 * rows). The previous page stays on screen while the next one loads.
 */
export const fleetQuery = (
  context: string | null,
  query: FleetQuery = {},
  onProgress: (p: FleetProgress) => void = () => undefined,
) =>
  queryOptions({
    queryKey: fleetKey(context, query),
    queryFn: ({ signal }) => streamFleet(context, query, onProgress, signal),
    staleTime: 15_000,
    retry: 0,
    placeholderData: keepPreviousData,
  });

export const proxyDetailQuery = (context: string | null, namespace: string, name: string) =>
  queryOptions({
    queryKey: ['proxies', 'detail', context ?? '', namespace, name] as const,
    queryFn: () =>
      fetchJson(withContext(`/api/proxies/${podPath({ namespace, name })}`, context), (d) =>
        ProxyDetailSchema.parse(d),
      ),
    staleTime: 15_000,
  });

export const ztunnelDetailQuery = (context: string | null, namespace: string, name: string) =>
  queryOptions({
    queryKey: ['proxies', 'ztunnel', context ?? '', namespace, name] as const,
    queryFn: () =>
      fetchJson(withContext(`/api/ztunnels/${podPath({ namespace, name })}`, context), (d) =>
        ZtunnelDetailSchema.parse(d),
      ),
    staleTime: 15_000,
  });

/** A proxy's raw config dump (GET /api/proxies/NS/NAME/config_dump), opened as a link. */
export const configDumpHref = (context: string | null, namespace: string, name: string) =>
  withContext(`/api/proxies/${podPath({ namespace, name })}/config_dump`, context);
