import { isKubeError } from '../kube/errors';

/** A short, specific reason a proxy endpoint could not be read, to show next to the proxy. */
export function failureReason(e: unknown): string {
  if (isKubeError(e)) {
    switch (e.kind) {
      case 'timeout':
        return `timeout: ${e.message}`;
      case 'http':
        return e.status === 403
          ? `forbidden (RBAC: get pods/proxy or create pods/portforward): ${e.message}`
          : `HTTP ${e.status ?? '?'}: ${e.message}`;
      default:
        return `${e.kind}: ${e.message}`;
    }
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * What a failed read through the API server says about the proxy. Only the API server's own
 * answer that it could not reach the pod (502/503, "error trying to reach service") means the
 * proxy did not answer: `unreachable`. No answer at all within the timeout, or any other
 * failure (the API server slow or down, RBAC, a bad answer), says nothing about the proxy:
 * its figures are `unknown`, with the reason.
 */
export function failureStatus(e: unknown): 'unreachable' | 'unknown' {
  return isKubeError(e) && e.kind === 'http' && (e.status === 502 || e.status === 503)
    ? 'unreachable'
    : 'unknown';
}

/** The reason and status of a failed proxy read, for a fleet row. */
export function failedRead(
  e: unknown,
  via = 'the API server',
): { ok: false; reason: string; status: 'unreachable' | 'unknown' } {
  const status = failureStatus(e);
  const reason = failureReason(e);
  return {
    ok: false,
    status,
    reason:
      status === 'unknown' && isKubeError(e) && e.kind === 'timeout'
        ? `no answer through ${via} in time (${reason}): the API server or the proxy is slow`
        : reason,
  };
}
