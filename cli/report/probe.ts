import { ClusterInfoSchema } from '../../lib/api/cluster';

export type ProbeResult =
  | { ok: true; cluster: string; clusterReachable: boolean; clusterError?: string }
  | { ok: false; message: string };

export type FetchLike = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

/** The `kubectl port-forward` that serves meshdx on the port of `base` (deploy/base/service.yaml). */
export function portForwardHint(base: string): string {
  const u = new URL(base);
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `kubectl -n meshdx port-forward svc/meshdx ${port}:80`;
}

function networkReason(e: unknown): string {
  if (e instanceof Error && e.name === 'TimeoutError') return 'no answer in time';
  const cause = e instanceof Error ? (e as Error & { cause?: unknown }).cause : undefined;
  if (cause && typeof cause === 'object') {
    const c = cause as { code?: unknown; message?: unknown };
    if (typeof c.code === 'string') return c.code;
    if (typeof c.message === 'string') return c.message;
  }
  return e instanceof Error ? e.message : String(e);
}

/**
 * GET URL/api/cluster: is meshdx there, and which cluster does it show? A network failure or an
 * answer that is not meshdx's is a message naming the URL and the port-forward to start.
 */
export async function probeMeshdx(
  base: string,
  fetchImpl: FetchLike = fetch,
  timeoutMs = 10_000,
): Promise<ProbeResult> {
  const endpoint = new URL('api/cluster', base).toString();
  const hint = `Is the port-forward running? e.g. ${portForwardHint(base)}`;
  let res: Response;
  try {
    res = await fetchImpl(endpoint, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    return {
      ok: false,
      message: `meshdx is not reachable at ${base} (GET ${endpoint}: ${networkReason(e)}). ${hint}`,
    };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const info = ClusterInfoSchema.safeParse(body);
  if (!res.ok || !info.success) {
    const what = res.ok ? 'an answer that is not meshdx cluster info' : `HTTP ${res.status}`;
    return {
      ok: false,
      message: `meshdx is not reachable at ${base}: GET ${endpoint} gave ${what}. Is this the meshdx URL? ${hint}`,
    };
  }
  return {
    ok: true,
    cluster: info.data.label,
    clusterReachable: info.data.reachable,
    ...(info.data.error
      ? { clusterError: `${info.data.error.code}: ${info.data.error.message}` }
      : {}),
  };
}
