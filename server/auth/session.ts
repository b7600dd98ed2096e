/**
 * The token-mode session: the user's bearer token and who the API server says they are, sealed
 * into an HttpOnly, SameSite=Strict cookie (seal.ts). The token is never written anywhere else:
 * not in logs, URLs, error messages or the page.
 */
import { z } from 'zod';
import { seal, unseal } from './seal';

export const SESSION_COOKIE = 'meshdx_session';
/** A session lasts at most this long, whatever the token's own lifetime. */
export const SESSION_MAX_AGE_S = 8 * 60 * 60;

const SessionSchema = z.object({
  v: z.literal(1),
  token: z.string().min(1),
  user: z.string().min(1),
  groups: z.array(z.string()),
  /** The context the token was checked against: a token belongs to one cluster. */
  context: z.string().min(1),
  /** Expiry, ms since the epoch. */
  exp: z.number(),
});
export type Session = z.infer<typeof SessionSchema>;

export function sealSession(s: Session, key: Buffer): string {
  return seal(JSON.stringify(s), key);
}

export type SessionRead =
  { ok: true; session: Session } | { ok: false; why: 'absent' | 'invalid' | 'expired' };

/** The session in a cookie value: refused when forged, malformed or past its expiry. */
export function openSession(value: string | undefined, key: Buffer, now: number): SessionRead {
  if (value === undefined || value === '') return { ok: false, why: 'absent' };
  const u = unseal(value, key);
  if (!u.ok) return { ok: false, why: 'invalid' };
  let json: unknown;
  try {
    json = JSON.parse(u.plaintext);
  } catch {
    return { ok: false, why: 'invalid' };
  }
  const parsed = SessionSchema.safeParse(json);
  if (!parsed.success) return { ok: false, why: 'invalid' };
  if (parsed.data.exp <= now) return { ok: false, why: 'expired' };
  return { ok: true, session: parsed.data };
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Whether the browser reached meshdx over https (directly, or through a TLS-terminating proxy). */
export function isHttps(url: string, headers: Headers): boolean {
  const fwd = headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return fwd === 'https' || new URL(url).protocol === 'https:';
}

/** Set-Cookie for a session: HttpOnly, SameSite=Strict, Path=/, bounded Max-Age, Secure on https. */
export function sessionCookie(sealed: string, maxAgeS: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${sealed}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.max(0, Math.floor(maxAgeS))}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/** Set-Cookie that ends the session in the browser. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
