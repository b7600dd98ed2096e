import { ApiErrorSchema } from '../../lib/api/errors';

/** An API error as the UI shows it: code, message and the fix. */
export class ApiRequestError extends Error {
  readonly code: string;
  readonly hint?: string;
  readonly status: number;
  constructor(status: number, code: string, message: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
  }
}

export async function fetchJson<T>(
  url: string,
  parse: (data: unknown) => T,
  opts: { signal?: AbortSignal } = {},
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { Accept: 'application/json' }, signal: opts.signal });
  } catch (e) {
    throw new ApiRequestError(
      0,
      'NETWORK',
      `meshdx server not reachable: ${(e as Error).message}`,
      'Is the port-forward to meshdx still running?',
    );
  }
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const err = ApiErrorSchema.safeParse(data);
    if (err.success)
      throw new ApiRequestError(
        res.status,
        err.data.error.code,
        err.data.error.message,
        err.data.error.hint,
      );
    throw new ApiRequestError(res.status, 'HTTP', `${url} answered ${res.status}`);
  }
  return parse(data);
}
