import type { FindingsReport } from '../../../lib/api/findings';
import type { RequestScope } from '../../auth/identity';
import { getFindings } from './findings';

/** How long a page waits for the findings past its own view, at most. */
const ALONGSIDE_GRACE_MS = 250;

/**
 * The first findings answer for a page whose own view is `alongside` (Overview's inventory):
 * both wait for the same lists, so the findings are mostly in with it and the page arrives with
 * them. Not in by then (and a short grace): a rejection, so the page is never held back by the
 * findings and the browser asks for them itself.
 */
export async function findingsAlongside(
  scope: RequestScope,
  alongside: Promise<unknown>,
): Promise<FindingsReport> {
  const first = getFindings(scope);
  // not waited for below: its failure is the browser's to show when it asks
  first.catch(() => undefined);
  const notYet = Symbol('not yet');
  let timer: NodeJS.Timeout | undefined;
  const by = alongside.then(
    () => undefined,
    () => undefined,
  );
  const r = await Promise.race([
    first,
    by.then(
      () =>
        new Promise<typeof notYet>((resolve) => {
          timer = setTimeout(() => resolve(notYet), ALONGSIDE_GRACE_MS);
        }),
    ),
  ]).finally(() => clearTimeout(timer));
  if (r === notYet)
    throw new Error('the findings were not in with the page: the browser asks for them');
  return r;
}
