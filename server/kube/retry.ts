/**
 * When meshdx asks the API server again, and after how long:
 *
 * - `429 Too Many Requests` (API Priority and Fairness rejected it, the request was not run):
 *   wait what `Retry-After` says (1 s when absent, as client-go assumes), then ask again, any
 *   method. At most MAX_429_RETRIES times.
 * - idempotent reads (GET) that met a connection reset or a 5xx from the API server itself:
 *   exponential backoff with jitter, at most MAX_READ_RETRIES times. Not pods/proxy answers:
 *   their 5xx are the pod's own answer or a dial error the API server reports, and asking an
 *   unreachable proxy again only spends the budget.
 * - a request of any method sent on a kept-alive socket that the API server closed as it went out
 *   (its idle timeout; the reset comes before any answer): once more at once, on a new socket.
 *   The server never read it (Node's documented `reusedSocket` case). transport.ts.
 * - never a timeout: the time is already spent, and the view's deadline counts on it.
 */
import type { RequestKind } from './budget';

export const MAX_429_RETRIES = 5;
export const MAX_READ_RETRIES = 3;
/** A Retry-After longer than this is not waited for: the 429 is the answer. */
export const MAX_RETRY_AFTER_MS = 30_000;
const BACKOFF_BASE_MS = 200;
const BACKOFF_MAX_MS = 3_000;

/** Retry-After (delta seconds or an HTTP date) in ms; 1 s when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number = Date.now()): number {
  if (header === undefined || header.trim() === '') return 1_000;
  const v = header.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : 1_000;
}

/** Backoff before read retry `attempt` (1-based): 200, 400, 800 ms ... capped, +-20% jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

/** Connection errors worth one more try of an idempotent read. */
const RESET_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNREFUSED',
  'ECONNABORTED',
]);

export function isConnectionReset(code: string | undefined): boolean {
  return code !== undefined && RESET_CODES.has(code);
}

/** Whether a failed GET of this kind (status, or a connection error code) is asked again. */
export function retriesRead(
  method: string,
  kind: RequestKind,
  failure: { status?: number; code?: string },
): boolean {
  if (method !== 'GET' || kind === 'watch') return false;
  if (isConnectionReset(failure.code)) return true;
  const s = failure.status;
  return s !== undefined && s >= 500 && s !== 501 && kind !== 'proxy';
}
