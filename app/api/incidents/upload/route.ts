import { apiError } from '@/lib/api/errors';
import { parseViewState } from '@/lib/api/viewstate';
import { jsonResponse } from '@/server/http';
import { contextParam } from '@/app/api/_lib/params';
import {
  analyzeUploadedLog,
  MAX_UPLOAD_BYTES,
  readLimitedText,
} from '@/server/screens/incidents/upload';

export const dynamic = 'force-dynamic';

/**
 * POST /api/incidents/upload?from=&to=&service=&ip=&format= with a pasted or uploaded access log
 * as the body (text/plain): the same view model, from that log instead of the pods' logs.
 */
export async function POST(req: Request) {
  const url = new URL(req.url);
  const state = parseViewState('incidents', url.searchParams);
  const format = url.searchParams.get('format') ?? undefined;
  const body = await readLimitedText(req, MAX_UPLOAD_BYTES);
  if (body.tooLarge) {
    return Response.json(
      apiError(
        'PAYLOAD_TOO_LARGE',
        `the log is larger than ${MAX_UPLOAD_BYTES / (1024 * 1024)} MiB`,
        'Cut it to the incident window (e.g. kubectl logs --since-time=...) or use `meshdx attribute LOG --history FILE` on the command line.',
      ),
      { status: 413, headers: { 'Cache-Control': 'no-store' } },
    );
  }
  return jsonResponse(() => analyzeUploadedLog(contextParam(url), state, body.text, format));
}
