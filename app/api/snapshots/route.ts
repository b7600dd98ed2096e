import { routeQuery, scoped } from '@/app/api/_lib/params';
import { RequestError } from '@/lib/api/request-error';
import { CONTEXT_PARAM } from '@/lib/api/context';
import { ignoredParams } from '@/lib/api/ignored-params';
import { badParameter } from '@/lib/api/request-error';
import { PAGE_PARAMS } from '@/lib/api/route-params';
import { FreezeRequestSchema, VIEW_PAGE, type FreezeRequest } from '@/lib/api/snapshots';
import { readLimitedText } from '@/server/screens/incidents/upload';
import { freezeView, listSnapshots } from '@/server/screens/snapshots/snapshots';

export const dynamic = 'force-dynamic';

const MAX_BODY_BYTES = 16 * 1024;

/**
 * A snapshot is a link that reopens the frozen page: a parameter of its query the page does not
 * read (a misspelt filter) would be kept in that link as if it had filtered the view, so it is
 * the 400 naming it (the page itself only notes it: lib/api/ignored-params.ts).
 */
function unknownLinkParams(req: FreezeRequest): void {
  const page = VIEW_PAGE[req.view] as '/incidents' | '/timelines';
  const reads = Object.keys(PAGE_PARAMS[page].query);
  const [first] = ignoredParams(new URLSearchParams(req.query), reads, [CONTEXT_PARAM]);
  if (!first) return;
  throw badParameter(
    'query',
    `${JSON.stringify(first.name.slice(0, 40))} is not a parameter of the ${page} page`,
    first.meant !== null
      ? `Did you mean ${first.meant}? The page reads ${reads.join(', ')}.`
      : `The page reads ${reads.join(', ')}.`,
  );
}

/** GET /api/snapshots?context= : the context's snapshots, newest first, with who made each. */
export function GET(req: Request) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/snapshots', new URL(req.url).searchParams);
    return listSnapshots(scope);
  });
}

/**
 * POST /api/snapshots?context= with `{"view":"incidents"|"timelines","query":"?from=..."}`:
 * freezes that view as its API answers it now, as the request's user; answers its id and link.
 */
export function POST(req: Request) {
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/snapshots', new URL(req.url).searchParams);
    const type = req.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      throw new RequestError(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `a snapshot is asked for with application/json, not ${type ?? 'a body without Content-Type'}`,
        'Send {"view":"incidents","query":"?from=...&to=..."} with Content-Type: application/json.',
      );
    const body = await readLimitedText(req, MAX_BODY_BYTES);
    if (body.tooLarge)
      throw new RequestError(413, 'PAYLOAD_TOO_LARGE', `the request is larger than 16 KiB`);
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch (e) {
      throw new RequestError(
        400,
        'INVALID_JSON',
        `the body is not JSON: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const parsed = FreezeRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RequestError(
        400,
        'INVALID_REQUEST',
        `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'not a snapshot request'}`,
        'Send {"view":"incidents","query":"?from=...&to=..."}.',
      );
    }
    unknownLinkParams(parsed.data);
    return freezeView(scope, parsed.data);
  });
}
