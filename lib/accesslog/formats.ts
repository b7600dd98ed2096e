import { compileFormat, type CompiledFormat } from './format';

const HEAD =
  '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS%';
const COUNTERS = '%BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)%';
const REQUEST =
  '"%REQ(X-FORWARDED-FOR)%" "%REQ(USER-AGENT)%" "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"';
const ADDRESSES =
  '%UPSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_LOCAL_ADDRESS% %DOWNSTREAM_REMOTE_ADDRESS% %REQUESTED_SERVER_NAME%';
const MIXER = '"%DYNAMIC_METADATA(istio.mixer:status)%"';
const FAILURE = '"%UPSTREAM_TRANSPORT_FAILURE_REASON%"';

/**
 * Istio's default TEXT formats, newest first. Generations differ only in the fields after
 * the flags and at the end of the line; the typed matcher tells them apart (a details field
 * is no byte count, a mixer status is quoted).
 */
export const ISTIO_FORMATS: ReadonlyArray<{ id: string; source: string }> = [
  {
    id: 'istio-1.9+',
    source: `${HEAD} %RESPONSE_CODE_DETAILS% %CONNECTION_TERMINATION_DETAILS% ${FAILURE} ${COUNTERS} ${REQUEST} %UPSTREAM_CLUSTER_RAW% ${ADDRESSES} %ROUTE_NAME%`,
  },
  {
    id: 'istio-1.1-1.8:failure-reason',
    source: `${HEAD} ${FAILURE} ${COUNTERS} ${REQUEST} %UPSTREAM_CLUSTER% ${ADDRESSES} %ROUTE_NAME%`,
  },
  {
    id: 'istio-1.1-1.8:mixer+failure-reason',
    source: `${HEAD} ${MIXER} ${FAILURE} ${COUNTERS} ${REQUEST} %UPSTREAM_CLUSTER% ${ADDRESSES} %ROUTE_NAME%`,
  },
  {
    id: 'istio-1.1-1.8:mixer',
    source: `${HEAD} ${MIXER} ${COUNTERS} ${REQUEST} %UPSTREAM_CLUSTER% ${ADDRESSES}`,
  },
  {
    id: 'istio-1.1-1.8',
    source: `${HEAD} ${COUNTERS} ${REQUEST} %UPSTREAM_CLUSTER% ${ADDRESSES}`,
  },
  { id: 'istio-pre-1.1', source: `${HEAD} ${COUNTERS} ${REQUEST}` },
];

/** Last resort for unknown TEXT formats that start like Istio's: time, request, code, flags. */
export const PREFIX_FORMAT = { id: 'istio-prefix', source: `${HEAD} ` };

const START = '[%START_TIME%] ';
/** The id of a format read without its leading `[%START_TIME%] `. */
export const NO_TIME_SUFFIX = ':no-start-time';

/**
 * Every built-in format without its leading `[%START_TIME%] `: gateway lines pasted from
 * docs, stern output of old proxies, lines whose time a log shipper cut off (and put in a
 * column of its own). They read as records without a time, tried after all timed formats:
 * a line that starts with `[TIME] ` never reaches them with its time dropped.
 */
export const UNTIMED_FORMATS: ReadonlyArray<{ id: string; source: string }> = ISTIO_FORMATS.map(
  (f) => ({ id: `${f.id}${NO_TIME_SUFFIX}`, source: f.source.slice(START.length) }),
);

/** The built-in formats compiled once, at load (about 2 ms): read only. */
const BUILTIN: readonly CompiledFormat[] = [...ISTIO_FORMATS, ...UNTIMED_FORMATS].map(
  (f) => compileFormat(f.source, f.id).format,
);

const PREFIX: readonly CompiledFormat[] = [
  compileFormat(PREFIX_FORMAT.source, PREFIX_FORMAT.id, true).format,
  compileFormat(
    PREFIX_FORMAT.source.slice(START.length),
    `${PREFIX_FORMAT.id}${NO_TIME_SUFFIX}`,
    true,
  ).format,
];

export function builtinFormats(): readonly CompiledFormat[] {
  return BUILTIN;
}

/** The prefix-only fallbacks: with the start time, then without it. */
export function prefixFormats(): readonly CompiledFormat[] {
  return PREFIX;
}
