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
const ENVOY_NATIVE = /^\[\d{4}-\d\d-\d\d[ T][^\]]*\]\[\d+\]\[[a-z]+\]/;

/**
 * The proxy's own log lines: pilot-agent/istio style `TIME\tLEVEL\t...` and Envoy's native
 * `[TIME][THREAD][LEVEL][LOGGER] ...`. (JSON-encoded proxy logs are recognised in json.ts.)
 */
export function isProxyLogLine(line: string): boolean {
  const c = line.charCodeAt(0);
  if (isDigit(c)) return PILOT_AGENT.test(line);
  if (c === 91 /* [ */) return ENVOY_NATIVE.test(line);
  return false;
}

/** A line that starts the way access-log lines do: `[` + digit, or a JSON object. */
export function looksLikeAccessLogStart(line: string): boolean {
  return (line[0] === '[' && isDigit(line.charCodeAt(1))) || line.startsWith('{"');
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
