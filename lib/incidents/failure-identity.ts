/**
 * Which failing requests are the same request. A client proxy reports each request once, but
 * meshdx may hear it twice: from the proxy's own log (a view's read, the live tail, the read
 * before its pod goes) and from the proxy's OpenTelemetry access logger (the receiver). The two
 * need not be the same text: the receiver may get the line in another format, or as fields a
 * Collector parsed out of it. So a request is known by the fields every access-log form
 * carries, not by its text: the client proxy, the request's start (ms), method, authority,
 * path, response code, flags, duration, upstream host and request id. The request id alone is
 * not enough: an application that forwards its caller's x-request-id sends several requests
 * under one id. A record without a start time keeps its text in the key as well: nothing else
 * tells two untimed requests apart.
 */
import type { FailureFields } from './failure-store';

/** The fields of a request that name it (see the module comment). */
export type IdentityFields = Pick<
  FailureFields,
  | 'time'
  | 'method'
  | 'authority'
  | 'path'
  | 'code'
  | 'flags'
  | 'durationMs'
  | 'upstreamHost'
  | 'requestId'
>;

const SEP = '\u001f';
const part = (v: string | number | null) => (v === null ? '' : String(v));

/**
 * The identity of a failing request sent through `proxy` (`ns/name`, or an upload's label), as
 * text: equal for the same request whichever form it came in, different for any two requests.
 * Flags are compared as a set (a JSON log lists them in its own order).
 */
export function failureIdentity(proxy: string, f: IdentityFields, raw: string): string {
  const flags = f.flags.length > 1 ? [...f.flags].sort().join(',') : (f.flags[0] ?? '');
  const key =
    proxy +
    SEP +
    part(f.time) +
    SEP +
    part(f.method) +
    SEP +
    part(f.authority) +
    SEP +
    part(f.path) +
    SEP +
    part(f.code) +
    SEP +
    flags +
    SEP +
    part(f.durationMs) +
    SEP +
    part(f.upstreamHost) +
    SEP +
    part(f.requestId);
  return f.time === null ? key + SEP + raw : key;
}
