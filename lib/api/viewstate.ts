import { z } from 'zod';
import { OBJECT_UID } from '../refs/pod-ref';
import { badParameter, isRequestError, type RequestError } from './request-error';
import { parseTimeParam, rfc3339Problem, TIME_FORMS_HINT } from './time-param';

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
export { rfc3339Problem, TIME_RANGE } from './time-param';

const isoTime = z
  .string()
  .refine((s) => rfc3339Problem(s) === null, 'not an RFC 3339 time')
  .transform((s) => new Date(s).toISOString())
  .optional()
  .catch(undefined);
/** "namespace/name" of one or more selected objects, comma-separated. */
const objectRefs = z
  .string()
  .max(2000)
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?(,[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?)*$/,
  )
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
    /** The selected pod's uid: that pod of the name (a deleted one whose namesake now runs). */
    uid: z.string().regex(OBJECT_UID).optional().catch(undefined),
    /** Pods alive at some moment of [from, to]: started before `to`, not gone before `from`. */
    from: isoTime,
    to: isoTime,
    /** Page of the fleet's rows (1-based), paged on the server. */
    page: z
      .string()
      .regex(/^[1-9]\d{0,5}$/)
      .optional()
      .catch(undefined),
  }),
  proxies: z.object({
    namespace: optionalNs,
    workload: text,
    q: text,
    sort: text,
    dir: sortDir,
    proxy: objectRef,
    /** The ztunnel whose workload table is open (namespace/name). */
    ztunnel: objectRef,
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
    /** Client proxies whose logs to read ("ns/pod", comma-separated), besides the chosen ones. */
    client: objectRefs,
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

/** The "ns/pod" refs of a comma-separated list (the Incidents `client` parameter). */
export function refList(v: string | undefined | null): string[] {
  return v ? [...new Set(v.split(',').filter(Boolean))] : [];
}

/** Longest window a view reads at once. */
export const MAX_WINDOW_MS = 31 * 24 * 3_600_000;

/** A request's parameters with its window in absolute times (resolveWindow). */
export interface ResolvedWindow {
  /** Every parameter as given, `from` and `to` as RFC 3339 UTC. */
  params: URLSearchParams;
  /** Whether a bound was given as epoch milliseconds or relative to now (the link moves). */
  rewritten: boolean;
}

function copyParams(params: Params): URLSearchParams {
  if (params instanceof URLSearchParams) return new URLSearchParams(params);
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) sp.append(k, one);
  }
  return sp;
}

/**
 * The time window of a request, checked strictly and made absolute: `from`/`to` in any form
 * lib/api/time-param.ts reads (RFC 3339, epoch milliseconds, `now-15m`), against `nowMs` (the
 * cluster's clock, read only when a bound is relative), in range, `from` before `to`, at most 31 days. Throws the 400 naming the
 * parameter. Views parse leniently for display (parseViewState): the API and the pages read the
 * window through this first, so a time meshdx cannot use is said, never dropped.
 */
export function resolveWindow(params: Params, now: number | (() => number)): ResolvedWindow {
  const out = copyParams(params);
  const flat = flatten(params);
  let rewritten = false;
  const ms: Partial<Record<'from' | 'to', number>> = {};
  // one instant for both bounds: now-1h..now is exactly an hour
  let nowMs: number | undefined;
  const once = () => (nowMs ??= typeof now === 'function' ? now() : now);
  for (const name of ['from', 'to'] as const) {
    const given = out.getAll(name).filter((v) => v !== '');
    if (given.length > 1) throw badParameter(name, `given ${given.length} times`, 'Give it once.');
    const v = given[0];
    if (v === undefined) continue;
    const t = parseTimeParam(v, once);
    if (!t.ok) throw badParameter(name, t.problem, TIME_FORMS_HINT);
    ms[name] = t.ms;
    if (t.form !== 'rfc3339') {
      rewritten = true;
      out.set(name, t.iso);
    }
  }
  if (ms.from !== undefined && ms.to !== undefined) {
    if (ms.from >= ms.to)
      throw badParameter('from', `${flat.from} is not before to (${flat.to})`, 'swap from and to');
    if (ms.to - ms.from > MAX_WINDOW_MS)
      throw badParameter('to', 'the window is longer than 31 days', 'choose a shorter window');
  }
  return { params: out, rewritten };
}

/** resolveWindow's problem (the 400 naming the parameter), or null when the window is usable. */
export function windowProblem(params: Params, nowMs: number = Date.now()): RequestError | null {
  try {
    resolveWindow(params, nowMs);
    return null;
  } catch (e) {
    if (isRequestError(e)) return e;
    throw e;
  }
}
