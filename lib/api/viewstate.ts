import { z } from 'zod';

/**
 * Every view keeps its state in the URL (namespace, filters, selection, time window as absolute
 * times), so that a screen pasted into an incident reopens the same way. These schemas are the
 * single place where search params are read and written.
 */
const dns1123 = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const optionalNs = z
  .string()
  .regex(dns1123, 'namespace must be a DNS-1123 label')
  .optional()
  .catch(undefined);
const text = z.string().max(200).optional().catch(undefined);
const isoTime = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not an RFC 3339 time')
  .transform((s) => new Date(s).toISOString())
  .optional()
  .catch(undefined);
/** "namespace/name" of a selected object. */
const objectRef = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/)
  .optional()
  .catch(undefined);
const sortDir = z.enum(['asc', 'desc']).optional().catch(undefined);

export const ViewStateSchemas = {
  overview: z.object({ namespace: optionalNs }),
  timelines: z.object({
    namespace: optionalNs,
    workload: text,
    verdict: text,
    q: text,
    sort: text,
    dir: sortDir,
    pod: objectRef,
    /** Pods alive at some moment of [from, to]: started before `to`, not gone before `from`. */
    from: isoTime,
    to: isoTime,
  }),
  proxies: z.object({
    namespace: optionalNs,
    workload: text,
    q: text,
    sort: text,
    dir: sortDir,
    proxy: objectRef,
    /** Page of the fleet's rows (1-based), paged on the server. */
    page: z
      .string()
      .regex(/^[1-9]\d{0,5}$/)
      .optional()
      .catch(undefined),
  }),
  scoping: z.object({ namespace: optionalNs, workload: text }),
  incidents: z.object({
    namespace: optionalNs,
    service: text,
    ip: z
      .string()
      .regex(/^[0-9a-fA-F.:]{2,45}$/)
      .optional()
      .catch(undefined),
    client: objectRef,
    from: isoTime,
    to: isoTime,
  }),
  findings: z.object({
    namespace: optionalNs,
    code: text,
    severity: z.enum(['error', 'warning', 'info']).optional().catch(undefined),
  }),
} as const;

export type ViewName = keyof typeof ViewStateSchemas;
export type ViewState<V extends ViewName> = z.infer<(typeof ViewStateSchemas)[V]>;

type Params = Record<string, string | string[] | undefined> | URLSearchParams;

function flatten(params: Params): Record<string, string> {
  const out: Record<string, string> = {};
  if (params instanceof URLSearchParams) {
    params.forEach((v, k) => {
      out[k] ??= v;
    });
    return out;
  }
  for (const [k, v] of Object.entries(params)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined && first !== '') out[k] = first;
  }
  return out;
}

/** Reads a view's state from search params; invalid values are dropped, never trusted. */
export function parseViewState<V extends ViewName>(view: V, params: Params): ViewState<V> {
  return ViewStateSchemas[view].parse(flatten(params)) as ViewState<V>;
}

/** Writes a view's state as a query string (stable key order, empty values left out). */
export function viewStateQuery(state: Record<string, string | undefined | null>): string {
  const sp = new URLSearchParams();
  for (const k of Object.keys(state).sort()) {
    const v = state[k];
    if (v !== undefined && v !== null && v !== '') sp.set(k, v);
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}
