/**
 * A request meshdx cannot serve as asked: a bad parameter (400), an unsupported method (405),
 * a media type it does not take (415). Thrown at the edge, answered as `{error:{code,message,hint}}`
 * with its status; recognised by name (Next may bundle a class more than once).
 */
export class RequestError extends Error {
  override name = 'RequestError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint?: string,
    /** Extra response headers (e.g. `Allow` for a 405). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function isRequestError(e: unknown): e is RequestError {
  return (
    e instanceof Error &&
    e.name === 'RequestError' &&
    typeof (e as RequestError).status === 'number' &&
    typeof (e as RequestError).code === 'string'
  );
}

/** A parameter that is wrong: 400 naming it. */
export function badParameter(name: string, message: string, hint?: string): RequestError {
  return new RequestError(400, 'INVALID_PARAMETER', `${name}: ${message}`, hint);
}
