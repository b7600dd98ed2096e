import { requireName } from '@/lib/kube/names';
import { badParameter } from '@/lib/api/request-error';
import { enterRequestIdentity } from '@/server/auth/request';

export interface PodRouteParams {
  namespace: string;
  name: string;
}

/**
 * The NAMESPACE/NAME of a pod route, validated. Next has already percent-decoded route params
 * once: decoding again would turn `a%25zz` into `a%zz` and then fail with "URI malformed", so
 * the params are used as given and checked against Kubernetes' name rules (InvalidNameError,
 * answered as 400 INVALID_NAME). Await it inside the handler's try so the error is JSON.
 */
export async function podParams(
  params: Promise<PodRouteParams> | PodRouteParams,
): Promise<PodRouteParams> {
  const { namespace, name } = await params;
  return { namespace: requireName('namespace', namespace), name: requireName('pod', name) };
}

/**
 * The `?context=NAME` of a request (absent or empty: the default context). Validated as a
 * kubeconfig context name can be: printable, at most 253 characters. Given the Request, it
 * also makes the request's identity (MESHDX_AUTH) the one its cluster calls are made as, or
 * throws the 401 that says why there is none (server/auth).
 */
export function contextParam(req: Request | URL | URLSearchParams): string | null {
  if (req instanceof Request) enterRequestIdentity(req);
  const sp =
    req instanceof URLSearchParams
      ? req
      : req instanceof URL
        ? req.searchParams
        : new URL(req.url).searchParams;
  const v = sp.get('context');
  if (v === null || v === '') return null;
  if (v.length > 253 || !/^[\x21-\x7e]+$/.test(v)) {
    throw badParameter(
      'context',
      `${JSON.stringify(v.slice(0, 60))} is not a context name`,
      'GET /api/contexts lists the contexts.',
    );
  }
  return v;
}
