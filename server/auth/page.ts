/**
 * A page's identity (server components have no Request: Next's headers() gives its headers). A
 * page whose session is missing, expired or not ours goes to the login with the reason.
 */
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { isRequestError } from '../../lib/api/request-error';
import type { Identity } from './identity';
import { identityOf } from './request';

export async function pageIdentity(): Promise<Identity> {
  const h = await headers();
  try {
    return identityOf(h);
  } catch (e) {
    if (isRequestError(e) && e.status === 401)
      redirect(`/login?reason=${encodeURIComponent(e.code)}`);
    throw e;
  }
}
