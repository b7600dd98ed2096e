/**
 * Envoy response flags (%RESPONSE_FLAGS%): a comma-separated list of short codes, "-" for none.
 * Ordered as in FIELD-NOTES (most relevant to meshdx first).
 */
export const RESPONSE_FLAGS: Readonly<Record<string, string>> = {
  UC: 'upstream connection termination',
  UF: 'upstream connection failure',
  URX: 'upstream retry limit (or max connect attempts) exceeded',
  UH: 'no healthy upstream host',
  UO: 'upstream overflow (circuit breaking)',
  NR: 'no route configured',
  UT: 'upstream request timeout',
  LR: 'connection local reset',
  UR: 'upstream remote reset',
  DC: 'downstream connection termination',
  NC: 'upstream cluster not found',
  LH: 'local service failed health check',
  DT: 'request or connection exceeded max duration',
  SI: 'stream idle timeout',
  RL: 'rate limited locally',
  UAEX: 'denied by the external authorization service',
  DPE: 'downstream request had an HTTP protocol error',
  UPE: 'upstream response had an HTTP protocol error',
  UMSDR: 'upstream request reached max stream duration',
  OM: 'overload manager terminated the request',
  DF: 'DNS resolution failed',
  DO: 'request terminated by drop overload',
  DR: 'downstream remote reset',
  DI: 'request delayed by fault injection',
  FI: 'request aborted by fault injection',
  IH: 'request rejected for invalid header values',
  RLSE: 'rate limit service error',
  RFCF: 'stream limit reached (response from filter chain)',
  NFCF: 'no filter chain found for the connection',
};

export interface ParsedFlags {
  flags: string[];
  /** Syntactically valid codes meshdx does not know (newer Envoy): kept in `flags` too. */
  unknown: string[];
}

/**
 * True when the value (or its part [a, b)) is a %RESPONSE_FLAGS% list ("-", or comma-separated
 * codes of 1 to 8 capital letters). Allocates nothing: format detection asks it of every
 * candidate column.
 */
export function isResponseFlags(value: string, a = 0, b = value.length): boolean {
  // '' or '-'
  if (b === a || (b === a + 1 && value.charCodeAt(a) === 45)) return true;
  let run = 0;
  for (let i = a; i < b; i++) {
    const c = value.charCodeAt(i);
    if (c >= 65 && c <= 90) {
      if (++run > 8) return false;
    } else if (c === 44 /* , */ && run > 0) run = 0;
    else return false;
  }
  return run > 0;
}

/**
 * Parses a %RESPONSE_FLAGS% value. Returns null when the value is not a flags list at all
 * (used by format detection to reject a wrong column alignment).
 */
export function parseResponseFlags(value: string): ParsedFlags | null {
  if (!isResponseFlags(value)) return null;
  if (value === '-' || value === '') return { flags: [], unknown: [] };
  const flags = value.split(',');
  const unknown: string[] = [];
  for (const flag of flags) if (!(flag in RESPONSE_FLAGS)) unknown.push(flag);
  return { flags, unknown };
}

export function describeFlag(flag: string): string {
  return RESPONSE_FLAGS[flag] ?? 'unknown flag';
}
