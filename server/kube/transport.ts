import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ClockOffset } from './clock-offset';
import {
  attachBudget,
  RequestBudget,
  requestKind,
  type BudgetSettings,
  type BudgetStats,
} from './budget';
import { isKubeError, KubeError, parseStatusBody } from './errors';
import {
  backoffMs,
  isConnectionReset,
  MAX_429_RETRIES,
  MAX_READ_RETRIES,
  MAX_RETRY_AFTER_MS,
  retriesRead,
  retryAfterMs,
} from './retry';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  timeoutMs?: number;
  method?: 'GET' | 'POST';
  body?: string;
  accept?: string;
  /** Largest body accepted; past it the request fails (protects the server's memory). */
  maxBytes?: number;
}

export interface TextResponse {
  status: number;
  contentType: string;
  body: string;
}

interface RawResponse extends TextResponse {
  retryAfter: string | undefined;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const DEFAULT_TIMEOUT_MS = 10_000;
/** Sockets kept alive per API server (and so the most stale ones a request can meet in a row). */
const MAX_SOCKETS = 64;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** Credentials from exec plugins and token files are re-read after this long. */
const AUTH_TTL_MS = 60_000;

/**
 * Requests to the API server with the credentials, CA and TLS settings of a KubeConfig
 * (client-node's own applyToHTTPSOptions, so exec plugins, tokens and client certificates all
 * work as they do for kubectl), with a timeout on every call and Kubernetes Status errors
 * mapped to KubeError. Every request goes through the runtime's RequestBudget (budget.ts).
 */
export class KubeTransport {
  private readonly kc: KubeConfig;
  readonly server: URL;
  private auth?: { at: number; opts: https.RequestOptions };
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  /** The API server's clock relative to this process's, from the `Date` of its answers. */
  readonly clock = new ClockOffset();
  /** The request budget (rate, pods/proxy + port-forward slots, counts); shared with port-forwards. */
  readonly budget: RequestBudget;

  constructor(kc: KubeConfig, budget: Partial<BudgetSettings> = {}) {
    this.kc = kc;
    this.budget = new RequestBudget(budget);
    attachBudget(kc, this.budget);
    const server = kc.getCurrentCluster()?.server;
    if (!server)
      throw new KubeError('protocol', 'the current kubeconfig context has no cluster server');
    this.server = new URL(server);
  }

  private async authOptions(): Promise<https.RequestOptions> {
    const now = Date.now();
    if (this.auth && now - this.auth.at < AUTH_TTL_MS) return this.auth.opts;
    const opts: https.RequestOptions = { headers: {} };
    await this.kc.applyToHTTPSOptions(opts);
    if (this.server.protocol === 'https:' && opts.agent instanceof https.Agent) {
      // keep one agent (and its sockets) for the TTL instead of one per call
      const agent = opts.agent as https.Agent & { options: https.AgentOptions };
      opts.agent = new https.Agent({ ...agent.options, keepAlive: true, maxSockets: MAX_SOCKETS });
    }
    this.auth = { at: now, opts };
    return opts;
  }

  url(pathname: string, query?: RequestOptions['query']): URL {
    const base = this.server.pathname.replace(/\/$/, '');
    const url = new URL(this.server.origin + base + pathname);
    for (const [k, v] of Object.entries(query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    return url;
  }

  /**
   * One API request within the runtime's budget: waits for a token (and a slot for pods/proxy),
   * honours `429 Retry-After`, retries an idempotent read after a connection reset or a 5xx
   * (see retry.ts), and maps a failure to KubeError.
   */
  async request(pathname: string, opts: RequestOptions = {}): Promise<TextResponse> {
    const url = this.url(pathname, opts.query);
    const method = opts.method ?? 'GET';
    const kind = requestKind(method, url.pathname, url.searchParams.get('watch') === 'true');
    let throttled = 0;
    let readRetries = 0;
    let staleSockets = 0;
    for (;;) {
      const release = await this.budget.acquire(kind);
      let res: RawResponse;
      try {
        res = await this.send(url, method, opts);
      } catch (e) {
        release();
        const code = (e as NodeJS.ErrnoException).code;
        if (staleSockets < MAX_SOCKETS && e instanceof StaleSocketReset) {
          // the request never reached the API server: sent again at once, whatever its method
          // (the next kept-alive socket may have been closed too: at most one try per socket)
          staleSockets++;
          this.budget.noteRetry();
          continue;
        }
        if (readRetries < MAX_READ_RETRIES && retriesRead(method, kind, { code })) {
          readRetries++;
          this.budget.noteRetry();
          await sleep(backoffMs(readRetries));
          continue;
        }
        throw toKubeError(e instanceof StaleSocketReset ? e.reset : e, url);
      }
      release();
      if (res.status === 429 && throttled < MAX_429_RETRIES) {
        const wait = retryAfterMs(res.retryAfter);
        if (wait <= MAX_RETRY_AFTER_MS) {
          throttled++;
          this.budget.noteTooManyRequests(wait);
          this.budget.noteRetry();
          await sleep(wait);
          continue;
        }
      } else if (res.status === 429) {
        this.budget.noteTooManyRequests(0);
      }
      if (
        res.status >= 400 &&
        readRetries < MAX_READ_RETRIES &&
        retriesRead(method, kind, { status: res.status })
      ) {
        readRetries++;
        this.budget.noteRetry();
        await sleep(backoffMs(readRetries));
        continue;
      }
      if (res.status >= 400) {
        const st = parseStatusBody(res.body);
        const detail =
          st.message ?? (res.body.trim().slice(0, 300) || http.STATUS_CODES[res.status]);
        throw new KubeError('http', `${res.status} from ${url.pathname}: ${detail}`, {
          status: res.status,
          reason: st.reason,
          url: url.pathname,
        });
      }
      return { status: res.status, contentType: res.contentType, body: res.body };
    }
  }

  /** What meshdx has asked of this API server, waited for and retried (health, view footers). */
  budgetStats(): BudgetStats {
    return this.budget.stats();
  }

  /** One HTTP exchange; any status resolves, transport failures reject (raw errors). */
  private async send(url: URL, method: string, opts: RequestOptions): Promise<RawResponse> {
    const auth = await this.authOptions();
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    const isHttps = url.protocol === 'https:';
    const headers: Record<string, string> = {
      ...(auth.headers as Record<string, string>),
      Accept: opts.accept ?? 'application/json',
      'User-Agent': 'meshdx',
    };
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';

    const sentAt = Date.now();
    return new Promise<RawResponse>((resolve, reject) => {
      const req = (isHttps ? https : http).request(
        url,
        {
          ...(isHttps ? auth : {}),
          agent: isHttps ? auth.agent : this.httpAgent,
          method,
          headers,
        },
        (res) => {
          this.clock.observe(res.headers.date, sentAt, Date.now());
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > maxBytes) {
              req.destroy(
                new KubeError(
                  'protocol',
                  `response from ${url.pathname} exceeds ${maxBytes} bytes`,
                ),
              );
              return;
            }
            chunks.push(c);
          });
          res.on('end', () => {
            clearTimeout(timer);
            const ra = res.headers['retry-after'];
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
              retryAfter: Array.isArray(ra) ? ra[0] : ra,
            });
          });
          res.on('error', (e) => reject(e));
        },
      );
      const timer = setTimeout(() => {
        req.destroy(
          new KubeError(
            'timeout',
            `no answer from ${url.host}${url.pathname} within ${timeoutMs} ms`,
            { url: url.pathname },
          ),
        );
      }, timeoutMs);
      let answered = false;
      req.once('response', () => (answered = true));
      req.on('error', (e) => {
        clearTimeout(timer);
        // a kept-alive socket the server closed as this request went out on it (its idle
        // timeout): the request was never read, so it may be sent again (Node's documented case)
        reject(
          req.reusedSocket && !answered && isConnectionReset((e as NodeJS.ErrnoException).code)
            ? new StaleSocketReset(e)
            : e,
        );
      });
      if (opts.body !== undefined) req.write(opts.body);
      req.end();
    });
  }

  /** Now on the API server's clock: what observation times are recorded in. */
  clusterNow(): Date {
    return this.clock.now();
  }

  /** The time the API server's newest answer gave (its `Date`), else clusterNow(). */
  clusterSaid(): Date {
    return this.clock.lastSaid() ?? this.clock.now();
  }

  async getJson<T>(pathname: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.request(pathname, opts);
    try {
      return JSON.parse(res.body) as T;
    } catch {
      throw new KubeError(
        'protocol',
        `${pathname} did not return JSON (content-type ${res.contentType || 'none'})`,
        {
          status: res.status,
          url: pathname,
        },
      );
    }
  }

  close(): void {
    this.httpAgent.destroy();
    const agent = this.auth?.opts.agent;
    if (agent instanceof https.Agent) agent.destroy();
  }
}

/** The reset of a request sent on a kept-alive socket the server had just closed (see send). */
class StaleSocketReset extends Error {
  readonly code: string | undefined;
  constructor(readonly reset: Error) {
    super(reset.message);
    this.code = (reset as NodeJS.ErrnoException).code;
  }
}

function toKubeError(e: unknown, url: URL): KubeError {
  if (isKubeError(e)) return e;
  const err = e as NodeJS.ErrnoException;
  const code = err.code ?? '';
  if (
    [
      'ECONNREFUSED',
      'ENOTFOUND',
      'EHOSTUNREACH',
      'ECONNRESET',
      'EAI_AGAIN',
      'ENETUNREACH',
    ].includes(code)
  ) {
    return new KubeError('unreachable', `cannot reach the API server at ${url.host}: ${code}`, {
      url: url.pathname,
    });
  }
  return new KubeError(
    'unreachable',
    `request to ${url.host}${url.pathname} failed: ${err.message}`,
    {
      url: url.pathname,
    },
  );
}
