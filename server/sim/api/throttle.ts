/**
 * The API server's `429 Too Many Requests` with `Retry-After`, as API Priority and Fairness
 * answers a client over its share: POST /_sim/throttle `{"count":N,"retryAfterSeconds":S,
 * "match":"proxy pods/proxy"}` rejects the next N API requests (those whose `verb resource` key,
 * as /_sim/info counts them, equals `match`, when given). GET /_sim/throttle shows what is left
 * and how many were rejected. Rejected requests are still counted in /_sim/info, as
 * apiserver_request_total counts its 429s.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { parseJson, readBody } from './body';
import type { SimContext } from './context';
import { requestKey } from './request-counts';
import { badRequest, sendJson, sendStatus } from './status';

interface Throttle {
  remaining: number;
  retryAfterSeconds: number;
  match: string | null;
  rejected: number;
}

const states = new WeakMap<SimContext, Throttle>();

function stateOf(ctx: SimContext): Throttle {
  let s = states.get(ctx);
  if (!s) {
    s = { remaining: 0, retryAfterSeconds: 1, match: null, rejected: 0 };
    states.set(ctx, s);
  }
  return s;
}

const ThrottleSchema = z
  .object({
    count: z.number().int().min(0).max(1_000_000),
    retryAfterSeconds: z.number().int().min(0).max(600).default(1),
    match: z.string().min(1).max(200).optional(),
  })
  .strict();

/** Answers 429 when the throttle fault applies to this request; true when it did. */
export function rejectThrottled(
  ctx: SimContext,
  method: string,
  url: URL,
  res: ServerResponse,
): boolean {
  const s = states.get(ctx);
  if (!s || s.remaining <= 0) return false;
  if (s.match !== null && requestKey(method, url) !== s.match) return false;
  s.remaining--;
  s.rejected++;
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Too many requests, please try again later.',
    reason: 'TooManyRequests',
    details: { retryAfterSeconds: s.retryAfterSeconds },
    code: 429,
  });
  res.writeHead(429, {
    'Content-Type': 'application/json',
    'Retry-After': String(s.retryAfterSeconds),
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
  return true;
}

/** GET and POST /_sim/throttle. */
export async function handleThrottle(
  ctx: SimContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const s = stateOf(ctx);
  if (req.method === 'POST') {
    const text = await readBody(req, 64 * 1024);
    if (text === 'too-large') return sendStatus(res, badRequest('body too large'));
    const json = parseJson(text);
    if (!json.ok) return sendStatus(res, badRequest(`bad JSON: ${json.error}`));
    const parsed = ThrottleSchema.safeParse(json.value);
    if (!parsed.success) {
      return sendStatus(res, badRequest(parsed.error.issues.map((i) => i.message).join('; ')));
    }
    s.remaining = parsed.data.count;
    s.retryAfterSeconds = parsed.data.retryAfterSeconds;
    s.match = parsed.data.match ?? null;
  }
  return sendJson(res, 200, JSON.stringify(s));
}
