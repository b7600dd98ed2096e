/** Why a call to the cluster failed, as data the UI can show next to the object it concerns. */
export type KubeErrorKind = 'unreachable' | 'timeout' | 'http' | 'protocol' | 'invalid-name';

export class KubeError extends Error {
  readonly kind: KubeErrorKind;
  /** HTTP status from the API server (or the pod port behind pods/proxy), when there was one. */
  readonly status?: number;
  /** Kubernetes Status reason (NotFound, Expired, Forbidden...), when the server sent one. */
  readonly reason?: string;
  readonly url?: string;

  constructor(
    kind: KubeErrorKind,
    message: string,
    extra: { status?: number; reason?: string; url?: string } = {},
  ) {
    super(message);
    this.name = 'KubeError';
    this.kind = kind;
    this.status = extra.status;
    this.reason = extra.reason;
    this.url = extra.url;
  }
}

/** Pulls message/reason out of a Kubernetes Status body, if that is what the server sent. */
export function parseStatusBody(body: string): { message?: string; reason?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && (parsed as { kind?: unknown }).kind === 'Status') {
      const st = parsed as { message?: unknown; reason?: unknown };
      return {
        message: typeof st.message === 'string' ? st.message : undefined,
        reason: typeof st.reason === 'string' ? st.reason : undefined,
      };
    }
  } catch {
    // not JSON: the caller shows the raw text
  }
  return {};
}

/**
 * Next bundles each route separately, so one error class can exist in several copies while
 * the cluster state (and the transport that throws) is shared process-wide: recognise errors
 * by name, never by instanceof.
 */
export function isKubeError(e: unknown): e is KubeError {
  return e instanceof Error && e.name === 'KubeError' && typeof (e as KubeError).kind === 'string';
}

/**
 * The text of any thrown value: an Error's message, an event's or object's `message` (a
 * websocket ErrorEvent carries its error inside), else its JSON. Never "[object Object]".
 */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object') {
    const o = e as { message?: unknown; error?: unknown; reason?: unknown; code?: unknown };
    if (typeof o.message === 'string' && o.message) return o.message;
    if (o.error !== undefined && o.error !== e) return errorText(o.error);
    if (typeof o.reason === 'string' && o.reason) return o.reason;
    try {
      const json = JSON.stringify(e);
      if (json && json !== '{}') return json;
    } catch {
      // circular: fall through to the constructor's name
    }
    return `${(e as object).constructor?.name ?? 'unknown'} error`;
  }
  return String(e);
}

/**
 * An upstream (a proxy's admin port, istiod, Prometheus) answered something meshdx cannot read:
 * a 502 that names the upstream, never the user's request.
 */
export function malformedAnswer(upstream: string, detail: string): KubeError {
  return new KubeError('protocol', `${upstream} answered something meshdx cannot read: ${detail}`);
}
