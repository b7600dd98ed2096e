import { z } from 'zod';
import { badParameter, type RequestError } from './request-error';

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
/** RFC 3339 date-time (section 5.6): a full date, a time, and Z or an offset. Nothing else. */
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
/** Earliest and latest instants a window may name (Kubernetes did not exist before 2014). */
export const TIME_RANGE = {
  min: Date.parse('2014-01-01T00:00:00Z'),
  max: Date.parse('2100-01-01T00:00:00Z'),
};

/** Why `s` is not a usable RFC 3339 time, or null when it is. */
export function rfc3339Problem(s: string): string | null {
  const m = RFC3339.exec(s);
  if (!m)
    return `${JSON.stringify(s.slice(0, 40))} is not an RFC 3339 time (like 2026-11-01T12:00:00Z)`;
  const [, y, mo, d, h, mi, se] = m.map(Number) as number[];
  const t = Date.parse(s);
  const probe = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 0));
  if (
    Number.isNaN(t) ||
    probe.getUTCMonth() !== (mo ?? 1) - 1 ||
    probe.getUTCDate() !== d ||
    (h ?? 0) > 23 ||
    (mi ?? 0) > 59 ||
    (se ?? 0) > 60
  )
    return `${JSON.stringify(s)} is not a valid date and time`;
  if (t < TIME_RANGE.min || t >= TIME_RANGE.max)
    return `${JSON.stringify(s)} is out of range (2014 to 2099)`;
  return null;
}

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

/**
 * The time window of a request, checked strictly: `from`/`to` must be RFC 3339, in range, and
 * `from` before `to`. Returns the problem as a 400 naming the parameter, or null. Views parse
 * leniently for display (parseViewState); the API and the page use this to say what is wrong.
 */
export function windowProblem(params: Params): RequestError | null {
  const flat = flatten(params);
  for (const name of ['from', 'to'] as const) {
    const v = flat[name];
    if (v === undefined) continue;
    const p = rfc3339Problem(v);
    if (p)
      return badParameter(name, p, 'give an absolute RFC 3339 time such as 2026-11-01T12:00:00Z');
  }
  const from = flat.from !== undefined ? Date.parse(flat.from) : null;
  const to = flat.to !== undefined ? Date.parse(flat.to) : null;
  if (from !== null && to !== null) {
    if (from >= to)
      return badParameter('from', `${flat.from} is not before to (${flat.to})`, 'swap from and to');
    if (to - from > MAX_WINDOW_MS)
      return badParameter('to', 'the window is longer than 31 days', 'choose a shorter window');
  }
  return null;
}
