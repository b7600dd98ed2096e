import { PageTitle } from '@/components/ui/Card';
import { LOGIN_REASONS } from '@/lib/api/session';
import { authSettings } from '@/server/auth/request';
import { ParamProblem } from '@/components/ui/ParamProblem';
import { pageQuery } from '@/server/screens/page-params';

export const dynamic = 'force-dynamic';

/**
 * Sign-in (MESHDX_AUTH=token): paste a Kubernetes bearer token; meshdx checks it with the API
 * server and then makes every call of the session with it. In the other modes, says why there is
 * nothing to sign in to.
 */
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const q = await pageQuery(null, '/login', await searchParams);
  const reason = q.values?.reason ?? null;
  const context = q.values?.context ?? '';
  const said = reason !== null ? (LOGIN_REASONS[reason] ?? null) : null;
  const mode = authSettings().MESHDX_AUTH;
  const problem = reason !== null && reason !== 'NO_SESSION' && reason !== 'SIGNED_OUT';
  return (
    <>
      <PageTitle
        title="Sign in"
        subtitle="meshdx shows the cluster as your own Kubernetes user: what your RBAC lets you read, nothing more."
      />
      {q.problem && <ParamProblem problem={q.problem} />}
      {said && (
        <p
          role={problem ? 'alert' : 'status'}
          data-testid="login-reason"
          data-reason={reason ?? ''}
          className={`mb-4 max-w-2xl rounded-md border p-3 text-sm ${problem ? 'border-red-300 bg-red-50 text-red-900' : 'border-slate-300 bg-slate-50 text-slate-800'}`}
        >
          {said}
        </p>
      )}
      {mode === 'token' ? (
        <form
          method="post"
          action="/api/session"
          className="max-w-2xl space-y-3"
          data-testid="login-form"
        >
          <label className="block text-sm font-medium text-slate-800" htmlFor="token">
            Kubernetes bearer token
          </label>
          <input
            id="token"
            name="token"
            type="password"
            autoComplete="off"
            spellCheck={false}
            required
            className="w-full rounded border border-slate-400 px-2 py-1.5 font-mono text-sm"
          />
          <input type="hidden" name="context" value={context} />
          <p className="text-xs text-slate-600">
            For example <code>kubectl create token SERVICEACCOUNT -n NAMESPACE</code>, or the
            id-token your OIDC login gives kubectl. The token stays in an HttpOnly cookie for at
            most 8 hours and is sent only to the API server.
          </p>
          <button
            type="submit"
            className="rounded bg-slate-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-slate-700"
          >
            Sign in
          </button>
        </form>
      ) : (
        <p className="max-w-2xl text-sm text-slate-700" data-testid="login-mode">
          {mode === 'none'
            ? 'This meshdx runs without login (MESHDX_AUTH=none, a port-forward install): it reads the cluster with its own ServiceAccount.'
            : 'This meshdx takes your identity from the authenticating proxy in front of it (MESHDX_AUTH=header) and impersonates you: there is no token to paste.'}{' '}
          <a href="/" className="text-sky-700 underline">
            Go to Overview
          </a>
        </p>
      )}
    </>
  );
}
