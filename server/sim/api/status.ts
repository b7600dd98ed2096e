import type { ServerResponse } from 'node:http';

export type StatusReason =
  | 'NotFound'
  | 'AlreadyExists'
  | 'BadRequest'
  | 'Expired'
  | 'Gone'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'MethodNotAllowed'
  | 'Conflict'
  | 'Invalid'
  | 'RequestEntityTooLarge'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'Timeout'
  | 'Unauthorized'
  | 'Forbidden';

/** One field error of an Invalid Status (metav1.StatusCause). */
export interface StatusCauseObject {
  reason: string;
  message: string;
  field?: string;
}

export interface StatusObject {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: StatusReason;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: StatusCauseObject[];
    retryAfterSeconds?: number;
  };
  code: number;
}

/** A failure Status object, shaped like the API server's. */
export function failure(
  code: number,
  reason: StatusReason,
  message: string,
  details?: StatusObject['details'],
): StatusObject {
  const s: StatusObject = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
  if (details !== undefined) s.details = details;
  return s;
}

export function notFound(resource: string, name: string, group = ''): StatusObject {
  const gr = group === '' ? resource : `${resource}.${group}`;
  return failure(404, 'NotFound', `${gr} "${name}" not found`, { name, group, kind: resource });
}

/** 409: the object changed since the resourceVersion the client sent (optimistic locking). */
export function conflict(info: { plural: string; group: string }, name: string): StatusObject {
  const gr = info.group === '' ? info.plural : `${info.plural}.${info.group}`;
  return failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${gr} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, group: info.group, kind: info.plural },
  );
}

export function badRequest(message: string): StatusObject {
  return failure(400, 'BadRequest', message);
}

export function sendJson(res: ServerResponse, code: number, body: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-cache, private',
  });
  res.end(body);
}

export function sendStatus(res: ServerResponse, s: StatusObject): void {
  sendJson(res, s.code, JSON.stringify(s));
}
