/** Cheap tests on the start of a line, used before any field is parsed. */

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)$/;

/**
 * `kubectl logs --timestamps` puts an RFC 3339 (nano) timestamp and one space before each line.
 * Returns the timestamp and the rest, or null when the line has no such prefix.
 */
export function splitKubectlTimestamp(line: string): { timestamp: string; rest: string } | null {
  if (line.length < 21 || !isDigit(line.charCodeAt(0)) || line[4] !== '-' || line[10] !== 'T')
    return null;
  const space = line.indexOf(' ', 19);
  if (space < 0 || space > 40) return null;
  const head = line.slice(0, space);
  if (head.includes('\t') || !RFC3339.test(head)) return null;
  return { timestamp: head, rest: line.slice(space + 1) };
}

const PILOT_AGENT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?\t/;
/** The same line pasted with spaces for its tabs: the level word makes it certain. */
const PILOT_AGENT_SPACED =
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)? +(?:trace|debug|info|warn|warning|error|fatal|critical|none)(?:[ \t]|$)/;
const ENVOY_NATIVE = /^\[\d{4}-\d\d-\d\d[ T][^\]]*\]\[\d+\]\[[a-z]+\]/;
/** protobuf's own logger in Envoy builds of Istio 0.x-1.0 (mixer and service-control clients). */
const LIBPROTOBUF = /^\[libprotobuf (?:INFO|WARNING|ERROR|FATAL) [^\]]*\] /;
/** glog/klog `I0526 08:27:30.531678  1 ingress.go:120] msg` (Istio 0.1-0.2 ingress, agents). */
const GLOG = /^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ [^\s\]]+:\d+\] /;

/**
 * The proxy's own log lines, of every Istio generation: pilot-agent/istio style
 * `TIME\tLEVEL\t...` (or with spaces, as pasted), Envoy's native
 * `[TIME][THREAD][LEVEL][LOGGER] ...`, protobuf's `[libprotobuf LEVEL file:line] ...` and
 * glog's `I0526 08:27:30.531678 1 file.go:120] ...`. (JSON-encoded proxy logs are recognised
 * in json.ts.)
 */
export function isProxyLogLine(line: string): boolean {
  const c = line.charCodeAt(0);
  if (isDigit(c)) return PILOT_AGENT.test(line) || PILOT_AGENT_SPACED.test(line);
  if (c === 91 /* [ */) return ENVOY_NATIVE.test(line) || LIBPROTOBUF.test(line);
  if (c === 73 || c === 87 || c === 69 || c === 70) return GLOG.test(line);
  return false;
}

/**
 * A line that starts the way access-log lines do: `[` + digit, a JSON object, or a request
 * line without its start time (`"GET `, `"- - -"`).
 */
export function looksLikeAccessLogStart(line: string): boolean {
  const c = line.charCodeAt(1);
  return (
    (line[0] === '[' && isDigit(c)) ||
    line.startsWith('{"') ||
    (line[0] === '"' && ((c >= 65 && c <= 90) || c === 45))
  );
}

/** Replacement characters (invalid UTF-8) or C0 controls other than tab. */
export function looksBinary(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 0xfffd || (c < 32 && c !== 9) || c === 127) return true;
  }
  return false;
}

export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Envoy `/stats` text (`cluster.outbound|80||x.svc.cluster.local.upstream_rq_pending_overflow:
 * 12`, histograms as `P0(...)` or `No recorded values`) and Prometheus text (`# TYPE ...`,
 * `envoy_cluster_upstream_rq{...} 12`): pasted or captured next to a log, never an access log.
 */
const STATS = /^[A-Za-z_][^\s]*\.[^\s]*: (?:-?\d+(?:\.\d+)?$|P0\(|No recorded values)/;
const PROM_META = /^# (?:TYPE|HELP) [A-Za-z_:]/;
const PROM_SAMPLE =
  /^[A-Za-z_:][A-Za-z0-9:]*_[A-Za-z0-9_:]*(?:\{[^}]*\})? (?:-?[0-9.]+(?:[eE][+-]?\d+)?|NaN|[+-]Inf)(?: -?\d+)?$/;

export function isStatsLine(line: string): boolean {
  const c = line.charCodeAt(0);
  if (c === 35 /* # */) return PROM_META.test(line);
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return false;
  return STATS.test(line) || PROM_SAMPLE.test(line);
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Removes terminal colour codes (stern colours pod and container names by default). */
export function stripAnsi(line: string): string {
  return line.indexOf('\u001b') < 0 ? line : line.replace(ANSI, '');
}

/**
 * `kubectl logs --prefix` writes `[pod/NAME/CONTAINER] ` before each line (before the time
 * of `--timestamps` when both are given). Unlike the `[START_TIME]` of Istio's text format,
 * it starts with a resource kind and a slash, never a digit.
 */
const KUBECTL_PREFIX = /^\[pod\/([^/\]\s]+)\/([^\]\s]+)\] /;

export function splitKubectlPrefix(line: string): { pod: string; rest: string } | null {
  if (!line.startsWith('[pod/')) return null;
  const m = KUBECTL_PREFIX.exec(line);
  return m ? { pod: m[1] as string, rest: line.slice(m[0].length) } : null;
}

/** How far into a line a record may start behind columns a tool added (stern, log UIs). */
const MAX_PREFIX = 512;
const MAX_CANDIDATES = 24;

/** The kind of start a record can have at a position. */
export type StartKind = 'time' | 'json' | 'quote' | 'digit' | 'level';

/**
 * Where a record (or a proxy log line) may start behind columns another tool added: after a
 * space or tab, at `[` + digit (Istio's `[START_TIME]`), `{"` (JSON), `"` + a capital or `-`
 * (a request line without its start time), a digit (an RFC 3339 time: istio-agent,
 * ztunnel, kubectl --timestamps) or a ztunnel level word before `access` (a ztunnel line
 * pasted without its time). In order, at most MAX_CANDIDATES within MAX_PREFIX.
 */
export function recordStarts(line: string): { at: number; kind: StartKind }[] {
  const out: { at: number; kind: StartKind }[] = [];
  const end = Math.min(line.length - 1, MAX_PREFIX);
  for (let p = 1; p < end && out.length < MAX_CANDIDATES; p++) {
    const before = line.charCodeAt(p - 1);
    if (before !== 32 && before !== 9) continue;
    const c = line.charCodeAt(p);
    const next = line.charCodeAt(p + 1);
    // each start is checked for its shape first: a full read per candidate is costly
    if (c === 91 /* [ */ && isDigit(next)) {
      if (TIME_START.test(line.slice(p, p + 48))) out.push({ at: p, kind: 'time' });
    } else if (c === 123 /* { */ && next === 34) out.push({ at: p, kind: 'json' });
    else if (c === 34 /* " */ && ((next >= 65 && next <= 90) || next === 45)) {
      if (REQUEST_START.test(line.slice(p, p + 24))) out.push({ at: p, kind: 'quote' });
    } else if (isDigit(c) && line.charCodeAt(p + 4) === 45 /* - */) {
      if (RFC3339_START.test(line.slice(p, p + 20))) out.push({ at: p, kind: 'digit' });
    } else if (c >= 100 && c <= 119 && ZTUNNEL_UNTIMED.test(line.slice(p, p + 24))) {
      out.push({ at: p, kind: 'level' });
    }
  }
  return out;
}

/** `[` + a start time + `] "` (an access log) or `][` (Envoy's own log line). */
const TIME_START = /^\[\d[0-9A-Za-z:.+ -]{7,39}\](?: "|\[)/;
/** `"METHOD ` or the `"- - -"` of a TCP line. */
const REQUEST_START = /^"(?:[A-Z]{3,}[ -]|- - -")/;
const RFC3339_START = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;
/** A ztunnel access line pasted without its time: `error access connection ...`. */
const ZTUNNEL_UNTIMED = /^(?:trace|debug|info|warn|error)[ \t]+access[ \t:]/;

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const KUBECTL_ANYWHERE = /(?:^|\s)\[pod\/([^/\]\s]+)\/[^\]\s]+\](?:\s|$)/;

/**
 * The pod named by the columns before a record, when they have stern's shape: `POD CONTAINER`
 * (one namespace) or `NAMESPACE POD CONTAINER` (several), Kubernetes names each. Other columns
 * (a log UI's own time, host, level) name no pod: null.
 */
export function podFromColumns(prefix: string): string | null {
  // a kubectl --prefix behind other columns (a shipper's own time first)
  const kubectl = KUBECTL_ANYWHERE.exec(prefix);
  if (kubectl) return kubectl[1] as string;
  const tokens = prefix.trim().split(/\s+/);
  if (tokens.length < 2 || tokens.length > 3) return null;
  if (!tokens.every((t) => NAME.test(t) && t.length <= 253)) return null;
  const pod = tokens[tokens.length - 2] as string;
  return /[a-z]/.test(pod) ? pod : null;
}
