/**
 * The list of session cookies signed out before their expiry. A sealed cookie carries its own
 * expiry and cannot be recalled from the browser that holds it, so sign-out records it here and
 * the server refuses it until it would have expired anyway. Bounded: an entry lives no longer
 * than its cookie, and the list never holds more than MAX_REVOCATIONS entries. Pure: the server
 * keeps the list beside the history store (server/auth/revocations.ts).
 */
import { z } from 'zod';

/** One signed-out cookie: a digest of its sealed value (never the value), and its expiry (ms). */
export interface Revocation {
  id: string;
  exp: number;
}

/** More sign-outs than one meshdx sees in a session's lifetime (8 h). */
export const MAX_REVOCATIONS = 10_000;

const FileSchema = z.object({
  v: z.literal(1),
  revoked: z.array(z.object({ id: z.string().regex(/^[0-9a-f]{64}$/), exp: z.number() })),
});

/** The entries still in force at `now`. */
export function pruneRevocations(list: readonly Revocation[], now: number): Revocation[] {
  return list.filter((r) => r.exp > now);
}

/**
 * The list with `id` added (until `exp`), entries past their expiry dropped. Over the bound, the
 * entries closest to their own expiry go first: they are the ones a replay could use least long.
 */
export function addRevocation(
  list: readonly Revocation[],
  entry: Revocation,
  now: number,
  max: number = MAX_REVOCATIONS,
): Revocation[] {
  const kept = pruneRevocations(list, now).filter((r) => r.id !== entry.id);
  if (entry.exp > now) kept.push(entry);
  if (kept.length <= max) return kept;
  return [...kept].sort((a, b) => b.exp - a.exp).slice(0, max);
}

export function isRevoked(list: readonly Revocation[], id: string, now: number): boolean {
  return list.some((r) => r.id === id && r.exp > now);
}

export function formatRevocations(list: readonly Revocation[]): string {
  return `${JSON.stringify({ v: 1, revoked: list })}\n`;
}

export type RevocationsRead = { ok: true; list: Revocation[] } | { ok: false; problem: string };

/** The list a file holds, or what is wrong with it (never a silent empty list). */
export function parseRevocations(text: string, now: number): RevocationsRead {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problem:
        `not a revocation list: ${parsed.error.issues[0]?.path.join('.') || '(root)'} ${parsed.error.issues[0]?.message ?? ''}`.trim(),
    };
  return { ok: true, list: pruneRevocations(parsed.data.revoked, now) };
}
