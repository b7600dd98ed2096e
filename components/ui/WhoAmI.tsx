'use client';

import { useQuery } from '@tanstack/react-query';
import { describeSession } from '../../lib/api/session';
import { sessionQuery } from './api';

/** The header's "who you are": the auth mode and user, and sign-out in token mode. */
export function WhoAmI() {
  const q = useQuery(sessionQuery());
  if (!q.data) return null;
  const s = q.data;
  return (
    <div className="flex items-center gap-2 text-sm text-slate-300" data-testid="whoami">
      <span
        data-testid="whoami-text"
        title={s.groups.join(', ')}
        className="line-clamp-3 max-w-[18rem] text-xs leading-tight"
      >
        {describeSession(s)}
      </span>
      {s.mode === 'token' && s.signedIn && (
        <form method="post" action="/api/session/logout">
          <button
            type="submit"
            className="rounded border border-slate-500 px-2 py-0.5 text-xs text-slate-100 hover:bg-slate-700"
            data-testid="logout"
          >
            Sign out
          </button>
        </form>
      )}
      {s.mode === 'token' && !s.signedIn && (
        <a href="/login" className="text-sky-300 underline" data-testid="signin-link">
          Sign in
        </a>
      )}
    </div>
  );
}
