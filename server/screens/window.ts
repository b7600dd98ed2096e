import { isRequestError, type RequestError } from '../../lib/api/request-error';
import { resolveWindow, type ResolvedWindow } from '../../lib/api/viewstate';
import type { RequestScope } from '../auth/identity';
import { runtimeFor } from '../runtime/registry';

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

/**
 * A request's window made absolute (lib/api/viewstate.ts resolveWindow), `now-15m` read against
 * the clock of the scope's cluster (the runtime is reached only when a bound is relative).
 * Throws the 400 naming the parameter.
 */
export function windowOf(scope: RequestScope, params: Params): ResolvedWindow {
  return resolveWindow(params, () => runtimeFor(scope).now().getTime());
}

/** A page's window: windowOf, or the problem the page shows (naming the parameter). */
export function windowAt(
  scope: RequestScope,
  params: Params,
):
  (ResolvedWindow & { problem: null }) | { params: null; rewritten: false; problem: RequestError } {
  try {
    return { ...windowOf(scope, params), problem: null };
  } catch (e) {
    if (!isRequestError(e)) throw e;
    return { params: null, rewritten: false, problem: e };
  }
}
