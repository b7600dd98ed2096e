/**
 * The dashboard as `meshdx mcp` reaches it: GETs of its own HTTP API (the view models the pages
 * read), with the caller's identity. With a bearer token, the token is handed to the dashboard's
 * own sign-in (POST /api/session, token mode's door) and the session cookie it answers is sent
 * with every call: the dashboard checks the token with the API server and answers as that user,
 * as it would in a browser. A dashboard without login (MESHDX_AUTH=none) says so (409 NO_LOGIN)
 * and is asked without a session. An answer the dashboard refuses is its own error body, passed
 * through as it came.
 */
import { createHash } from 'node:crypto';
import { ApiErrorSchema, apiError, type ApiError } from '../../lib/api/errors';
import { linkTo } from '../../lib/api/context';

/** What one GET of the dashboard came back as. */
export type DashboardAnswer =
  { ok: true; body: unknown } | { ok: false; status: number; error: ApiError };

/** The dashboard of one caller: its base URL and GETs of its API as that caller. */
export interface Dashboard {
  /** The dashboard's base URL, ending in '/' (links are made from it). */
  readonly base: string;
  /** GET `path` (an /api/... route) with `query` and the context; never throws. */
  get(path: string, query: URLSearchParams, context: string | null): Promise<DashboardAnswer>;
}

/** Longest a view is waited for (a dashboard answers within its view deadline, 25 s by default). */
const ANSWER_GUARD_MS = 120_000;

type Fetch = typeof fetch;

/** A session cookie per (token, context), signed in once and reused until the dashboard ends it. */
export class DashboardSessions {
  private readonly cookies = new Map<string, Promise<string | null | ApiErrorAnswer>>();

  constructor(
    private readonly base: string,
    private readonly fetcher: Fetch = fetch,
  ) {}

  /** The cookie header of `token`'s session on `context` (null: the dashboard has no login). */
  cookie(token: string, context: string | null): Promise<string | null | ApiErrorAnswer> {
    const key = sessionKeyOf(token, context);
    let c = this.cookies.get(key);
    if (!c) {
      c = this.signIn(token, context);
      this.cookies.set(key, c);
      // a refusal is not kept: the next call tries again (a token renewed meanwhile)
      void c.then((v) => {
        if (typeof v === 'object' && v !== null) this.cookies.delete(key);
      });
    }
    return c;
  }

  /** Forgets a session the dashboard no longer takes (expired, signed out). */
  forget(token: string, context: string | null): void {
    this.cookies.delete(sessionKeyOf(token, context));
  }

  /** Ends every session this server opened (POST /api/session/logout). */
  async signOutAll(): Promise<void> {
    const all = [...this.cookies.values()];
    this.cookies.clear();
    await Promise.all(
      all.map(async (c) => {
        const cookie = await c;
        if (typeof cookie !== 'string') return;
        await this.fetcher(new URL('api/session/logout', this.base), {
          method: 'POST',
          headers: { Cookie: cookie },
          signal: AbortSignal.timeout(ANSWER_GUARD_MS),
        }).catch(() => undefined);
      }),
    );
  }

  private async signIn(
    token: string,
    context: string | null,
  ): Promise<string | null | ApiErrorAnswer> {
    let res: Response;
    try {
      res = await this.fetcher(new URL('api/session', this.base), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ token, context }),
        signal: AbortSignal.timeout(ANSWER_GUARD_MS),
      });
    } catch (e) {
      return unreachable(this.base, e);
    }
    if (res.ok) {
      const set = res.headers.get('set-cookie') ?? '';
      const pair = /^\s*([^=;\s]+=[^;]*)/.exec(set)?.[1];
      if (!pair)
        return {
          status: 502,
          error: apiError('DASHBOARD_ANSWER', 'the dashboard signed in without a session cookie'),
        };
      return pair;
    }
    const answer = await errorOf(res);
    // a dashboard without login: the token is not needed, the call goes as the dashboard's own
    if (answer.status === 409 && answer.error.error.code === 'NO_LOGIN') return null;
    return answer;
  }
}

interface ApiErrorAnswer {
  status: number;
  error: ApiError;
}

function sessionKeyOf(token: string, context: string | null): string {
  return `${createHash('sha256').update(token).digest('hex')}\n${context ?? ''}`;
}

function unreachable(base: string, e: unknown): ApiErrorAnswer {
  const why = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : '';
  return {
    status: 502,
    error: apiError(
      'DASHBOARD_UNREACHABLE',
      `the meshdx dashboard at ${base} did not answer${why ? `: ${why}` : ''}`,
      'Check --url (e.g. the port of `kubectl -n meshdx port-forward svc/meshdx 3000:80`).',
    ),
  };
}

/** A refusal's own body when it is the dashboard's error shape, else what came, said. */
async function errorOf(res: Response): Promise<ApiErrorAnswer> {
  const text = await res.text().catch(() => '');
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: said below
  }
  const parsed = ApiErrorSchema.safeParse(json);
  if (parsed.success) return { status: res.status, error: parsed.data };
  return {
    status: res.status,
    error: apiError(
      'DASHBOARD_ANSWER',
      `the dashboard answered ${res.status} without an error body: ${text.slice(0, 200)}`,
    ),
  };
}

const RETRY_CODES: ReadonlySet<string> = new Set(['SESSION_EXPIRED', 'SESSION_REVOKED']);

/**
 * The dashboard at `base` as one caller: `token` (a Kubernetes bearer token, or null for none)
 * signed in through `sessions`.
 */
export function dashboardAs(
  base: string,
  token: string | null,
  sessions: DashboardSessions,
  fetcher: Fetch = fetch,
): Dashboard {
  const once = async (
    path: string,
    query: URLSearchParams,
    context: string | null,
  ): Promise<DashboardAnswer> => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token !== null) {
      const cookie = await sessions.cookie(token, context);
      if (typeof cookie === 'object' && cookie !== null) return { ok: false, ...cookie };
      if (cookie !== null) headers.Cookie = cookie;
    }
    let res: Response;
    try {
      res = await fetcher(new URL(linkTo(path, query, context).replace(/^\//, ''), base), {
        headers,
        signal: AbortSignal.timeout(ANSWER_GUARD_MS),
      });
    } catch (e) {
      return { ok: false, ...unreachable(base, e) };
    }
    if (!res.ok) return { ok: false, ...(await errorOf(res)) };
    const text = await res.text();
    try {
      return { ok: true, body: JSON.parse(text) as unknown };
    } catch {
      return {
        ok: false,
        status: 502,
        error: apiError('DASHBOARD_ANSWER', `${path} answered something that is not JSON`),
      };
    }
  };
  return {
    base,
    async get(path, query, context) {
      const first = await once(path, query, context);
      if (first.ok || token === null || !RETRY_CODES.has(first.error.error.code)) return first;
      // the dashboard ended the session (8 h, a sign-out): one new sign-in, then as it answers
      sessions.forget(token, context);
      return once(path, query, context);
    },
  };
}
