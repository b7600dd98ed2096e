/**
 * What clients asked the simulated API server, counted by verb and resource (`watch pods`,
 * `list events`, `proxy pods`, `portforward pods`...), as an API server's request metrics
 * (apiserver_request_total{verb,resource}) would show them. GET /_sim/info reports them, so a
 * test can prove how many watches one meshdx server opens. The watches open now are counted apart,
 * as the API server's apiserver_longrunning_requests gauge counts them: a watch that ends at its
 * timeoutSeconds and is resumed is one more request but still one watch.
 */
export class RequestCounts {
  private readonly counts = new Map<string, number>();
  private readonly open = new Map<string, number>();

  /**
   * Counts one request by its method and URL; a watch counts as open until `closed` (the
   * response's close) is called.
   */
  note(method: string, url: URL, closed?: (end: () => void) => void): void {
    const key = requestKey(method, url);
    if (!key) return;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (!key.startsWith('watch ') || !closed) return;
    this.open.set(key, (this.open.get(key) ?? 0) + 1);
    closed(() => this.open.set(key, (this.open.get(key) ?? 1) - 1));
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The watches open now, by `watch resource`. */
  openWatches(): Record<string, number> {
    return Object.fromEntries(
      [...this.open].filter(([, n]) => n > 0).sort(([a], [b]) => a.localeCompare(b)),
    );
  }
}

/** `verb resource[/subresource]` of an API request, or null for discovery and the like. */
export function requestKey(method: string, url: URL): string | null {
  const parts = url.pathname.split('/').filter(Boolean);
  // /api/v1/... or /apis/GROUP/VERSION/...
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) rest = parts.slice(2);
  else if (parts[0] === 'apis' && parts.length >= 4) rest = parts.slice(3);
  else return null;
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [resource, name, sub] = rest;
  if (!resource) return null;
  const watch = ['1', 'true'].includes(url.searchParams.get('watch') ?? '');
  const m = method.toUpperCase();
  let verb: string;
  if (sub) verb = sub === 'proxy' || sub.startsWith('proxy') ? 'proxy' : sub;
  else if (m === 'GET') verb = watch ? 'watch' : name ? 'get' : 'list';
  else verb = m.toLowerCase();
  const what = sub ? `${resource}/${sub.split(':')[0]}` : resource;
  return `${verb} ${what}`;
}
