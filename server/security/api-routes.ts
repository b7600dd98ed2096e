/**
 * The API's paths, as app/api holds them (tests/edges/paths.test.ts and route-walk.test.ts keep
 * the registry and the files in step), so the proxy can answer a path no route serves with a
 * JSON 404 before Next's HTML page, and a trailing slash or a dot segment with a JSON error
 * instead of Next's redirect.
 */
import { ROUTE_PARAMS } from '../../lib/api/route-params';
import type { Refusal } from './guard';

const SEG = '[^/]+';
/** Every route app/api holds: the keys of the parameter registry (lib/api/route-params.ts). */
export const API_ROUTES: readonly string[] = Object.keys(ROUTE_PARAMS);

const PATTERNS = API_ROUTES.map(
  (r) => new RegExp(`^${r.replace(/\[[a-z]+\]/g, SEG).replace(/\//g, '\\/')}$`),
);

/** Why an /api path is served by no route (404) or is not a path at all (400); null when served. */
export function apiPathProblem(pathname: string): Refusal | null {
  const segments = pathname.split('/').slice(1);
  if (segments.some((s) => s === '.' || s === '..' || /^(%2e|\.){1,2}$/i.test(s)))
    return {
      status: 400,
      code: 'INVALID_REQUEST',
      message: `the path ${JSON.stringify(pathname)} has a "." or ".." segment`,
      hint: 'Name the resource itself: /api/pods/NAMESPACE/NAME.',
    };
  if (pathname.length > 1 && pathname.endsWith('/'))
    return {
      status: 404,
      code: 'NOT_FOUND',
      message: `no API path ${JSON.stringify(pathname)}: API paths have no trailing slash`,
      hint: `Use ${pathname.replace(/\/+$/, '') || '/api'}.`,
    };
  if (PATTERNS.some((p) => p.test(pathname))) return null;
  return {
    status: 404,
    code: 'NOT_FOUND',
    message: `no API path ${JSON.stringify(pathname)}`,
    hint: 'Check the path against the routes meshdx serves (/api/cluster, /api/incidents, /api/timelines, ...).',
  };
}
