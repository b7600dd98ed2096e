import { createLineParser } from '@/lib/accesslog/parser';
import { apiError } from '@/lib/api/errors';
import { parseViewState, resolveWindow } from '@/lib/api/viewstate';
import { errorResponse } from '@/server/http';
import { routeQuery, scoped } from '@/app/api/_lib/params';
import { isUploadMediaType, mediaType, UPLOAD_MEDIA_TYPES } from '@/server/security/media-type';
import {
  analyzeUploadedLog,
  MAX_UPLOAD_BYTES,
  readLimitedText,
  uploadProblem,
} from '@/server/screens/incidents/upload';

export const dynamic = 'force-dynamic';

/**
 * Why no line of an upload is an access-log record (in Istio's formats, ztunnel's, or `format`),
 * or null at its first record: an upload of anything else is refused, never shown as a log in
 * which nothing failed.
 */
function noAccessLogRecord(text: string, format: string | undefined): string | null {
  const parser = createLineParser({ format });
  let lines = 0;
  for (const line of text.split('\n')) {
    const r = parser.push(line);
    // a ztunnel's "connection opened" line is an access log's too, with nothing failed yet
    if (r.kind === 'record' || (r.kind === 'skipped' && r.reason === 'connection-opened'))
      return null;
    if (r.kind === 'skipped' && r.reason === 'empty') continue;
    lines++;
  }
  return `none of its ${lines} lines is an access-log record${format ? ` in the format given` : " in Istio's or ztunnel's formats"}`;
}

/**
 * POST /api/incidents/upload?from=&to=&service=&ip=&format= with a pasted or uploaded access log
 * as the body (text/plain): the same view model, from that log instead of the pods' logs. Any
 * other body type (JSON, gzip, octet-stream, a form, none) is refused with 415 before it is read.
 */
export async function POST(req: Request) {
  const contentType = req.headers.get('content-type');
  if (!isUploadMediaType(contentType)) {
    return Response.json(
      apiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `the upload takes the access log as text/plain, not ${mediaType(contentType) ?? (contentType ? JSON.stringify(contentType) : 'a body without Content-Type')}`,
        "Send the log's text with Content-Type: text/plain, e.g. curl --data-binary @istio-proxy.log -H 'Content-Type: text/plain' URL (decompress a .gz first).",
      ),
      {
        status: 415,
        headers: { 'Cache-Control': 'no-store', 'Accept-Post': UPLOAD_MEDIA_TYPES.join(', ') },
      },
    );
  }
  const url = new URL(req.url);
  let format: string | undefined;
  let params: URLSearchParams;
  try {
    // an uploaded log is read against this server's clock for now-15m (no cluster is asked);
    // the namespace is checked against the cluster once the request's scope is known, below
    const win = resolveWindow(url.searchParams, Date.now());
    const query = await routeQuery(null, '/api/incidents/upload', win.params);
    params = query.params;
    format = query.values.format;
  } catch (e) {
    return errorResponse(e);
  }
  const state = parseViewState('incidents', params);
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
  const unreadable = uploadProblem(body.bytes);
  if (unreadable)
    return Response.json(apiError(unreadable.code, unreadable.message, unreadable.hint), {
      status: unreadable.status,
      headers: { 'Cache-Control': 'no-store' },
    });
  const noRecord = noAccessLogRecord(body.text, format);
  if (noRecord)
    return Response.json(
      apiError(
        'NO_ACCESS_LOG_RECORDS',
        noRecord,
        format
          ? "Check that format is the accessLogFormat the proxy logged with, or leave it out to read Istio's formats."
          : 'Paste or upload the text of an istio-proxy access log (kubectl logs POD -c istio-proxy); a custom access-log format goes in format.',
      ),
      { status: 422, headers: { 'Cache-Control': 'no-store' } },
    );
  return scoped(req, async (scope) => {
    await routeQuery(scope, '/api/incidents/upload', params);
    return analyzeUploadedLog(scope, state, body.text, format);
  });
}
