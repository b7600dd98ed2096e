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
