/**
 * A page's scope, through the same door as an API request's (request.ts: scopeOf); a server
 * component has no Request, so Next's headers() gives the headers. A page whose session is
 * missing, expired or not ours goes to the login with the reason; a `?context=` that cannot be
 * a context name is returned as the problem for the page to show.
 */
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ApiError } from '../../lib/api/errors';
import { isRequestError } from '../../lib/api/request-error';
import type { RequestScope } from './identity';
import { scopeOf } from './request';

export type PageScope =
  { scope: RequestScope; problem: null } | { scope: null; problem: ApiError['error'] };

export async function pageScope(
  params: Record<string, string | string[] | undefined>,
): Promise<PageScope> {
  const h = await headers();
  try {
    return { scope: scopeOf(h, params), problem: null };
  } catch (e) {
    if (!isRequestError(e)) throw e;
    if (e.status === 401) redirect(`/login?reason=${encodeURIComponent(e.code)}`);
    return {
      scope: null,
      problem: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) },
    };
  }
}
