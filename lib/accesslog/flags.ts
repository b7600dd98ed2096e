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

const FLAG_TOKEN = /^[A-Z]{1,8}$/;

export interface ParsedFlags {
  flags: string[];
  /** Syntactically valid codes meshdx does not know (newer Envoy): kept in `flags` too. */
  unknown: string[];
}

/**
 * Parses a %RESPONSE_FLAGS% value. Returns null when the value is not a flags list at all
 * (used by format detection to reject a wrong column alignment).
 */
export function parseResponseFlags(value: string): ParsedFlags | null {
  if (value === '-' || value === '') return { flags: [], unknown: [] };
  const flags = value.split(',');
  const unknown: string[] = [];
  for (const flag of flags) {
    if (!FLAG_TOKEN.test(flag)) return null;
    if (!(flag in RESPONSE_FLAGS)) unknown.push(flag);
  }
  return { flags, unknown };
}

export function describeFlag(flag: string): string {
  return RESPONSE_FLAGS[flag] ?? 'unknown flag';
}
