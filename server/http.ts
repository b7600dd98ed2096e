import { apiError, type ApiError } from '../lib/api/errors';
import { isInvalidNameError } from '../lib/kube/names';
import { isKubeError } from './kube/errors';
import { isClusterConfigError } from './kube/source';

export interface ErrorResult {
  status: number;
  body: ApiError;
}

/** Maps any failure to an HTTP status and an error that says what to do about it. */
export function toErrorResult(e: unknown): ErrorResult {
  if (isInvalidNameError(e)) return { status: 400, body: apiError('INVALID_NAME', e.message) };
  if (isClusterConfigError(e)) return { status: 503, body: apiError(e.code, e.message, e.hint) };
  if (e instanceof Error && e.name === 'EnvError')
    return { status: 500, body: apiError('INVALID_CONFIG', e.message) };
  if (isKubeError(e)) {
    switch (e.kind) {
      case 'invalid-name':
        return { status: 400, body: apiError('INVALID_REQUEST', e.message) };
      case 'timeout':
        return {
          status: 504,
          body: apiError(
            'API_TIMEOUT',
            e.message,
            'The API server or the pod answered too slowly; try again or narrow the namespace.',
          ),
        };
      case 'unreachable':
        return {
          status: 502,
          body: apiError(
            'API_UNREACHABLE',
            e.message,
            'Check that the cluster is up and that the kubeconfig server address is reachable from meshdx (VPN, port-forward, proxy).',
          ),
        };
      case 'http':
        if (e.status === 401)
          return {
            status: 502,
            body: apiError(
              'UNAUTHORIZED',
              e.message,
              'The kubeconfig credentials were refused: refresh them (e.g. log in again).',
            ),
          };
        if (e.status === 403)
          return {
            status: 502,
            body: apiError(
              'FORBIDDEN',
              e.message,
              'meshdx needs read RBAC: apply deploy/base (kubectl apply -k deploy/base) or use a context allowed to list these resources.',
            ),
          };
        if (e.status === 404) return { status: 404, body: apiError('NOT_FOUND', e.message) };
        return { status: 502, body: apiError('API_ERROR', e.message) };
      default:
        return { status: 502, body: apiError('API_PROTOCOL', e.message) };
    }
  }
  if (e instanceof RangeError || e instanceof SyntaxError)
    return { status: 400, body: apiError('INVALID_REQUEST', e.message) };
  const msg = e instanceof Error ? e.message : String(e);
  return { status: 500, body: apiError('INTERNAL', msg) };
}

/** Runs a use case and answers JSON; any failure becomes a clear error body, never a crash. */
export async function jsonResponse<T>(run: () => Promise<T>): Promise<Response> {
  try {
    const body = await run();
    return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
  } catch (e) {
    const r = toErrorResult(e);
    if (r.status >= 500 && r.body.error.code === 'INTERNAL')
      console.error('meshdx: unexpected error', e);
    return Response.json(r.body, { status: r.status, headers: { 'Cache-Control': 'no-store' } });
  }
}
