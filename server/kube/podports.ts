import { PassThrough, Writable } from 'node:stream';
import { PortForward, type KubeConfig } from '@kubernetes/client-node';
import { requireName } from '../../lib/kube/names';
import { budgetOf } from './budget';
import { errorText, KubeError } from './errors';
import { MAX_429_RETRIES } from './retry';
import type { KubeTransport, TextResponse } from './transport';
import { podKey } from '../../lib/refs/pod-ref';

/**
 * Pod ports meshdx may read through the API server's pods/proxy: pilot-agent, health, Envoy's
 * Prometheus listener and istiod's monitoring port (/metrics). Not Envoy admin (loopback only).
 */
export const PROXYABLE_PORTS: ReadonlySet<number> = new Set([15014, 15020, 15021, 15090]);
/** Envoy admin: bound to localhost in the pod, reachable only through port-forward. */
export const ENVOY_ADMIN_PORT = 15000;

function checkPath(path: string): string {
  if (!path.startsWith('/') || path.includes('..') || /[\s#?]/.test(path)) {
    throw new KubeError('invalid-name', `invalid pod port path ${JSON.stringify(path)}`);
  }
  return path;
}

/**
 * GET a pod port through the API server's pods/proxy subresource
 * (/api/v1/namespaces/NS/pods/NAME:PORT/proxy/PATH), as `kubectl get --raw` would.
 */
export async function podProxyGet(
  t: KubeTransport,
  namespace: string,
  pod: string,
  port: number,
  path: string,
  opts: { query?: Record<string, string>; timeoutMs?: number; maxBytes?: number } = {},
): Promise<TextResponse> {
  if (!PROXYABLE_PORTS.has(port)) {
    throw new KubeError(
      'invalid-name',
      `port ${port} is not read through pods/proxy (allowed: ${[...PROXYABLE_PORTS].join(', ')})`,
    );
  }
  const ns = requireName('namespace', namespace);
  const name = requireName('pod', pod);
  return t.request(`/api/v1/namespaces/${ns}/pods/${name}:${port}/proxy${checkPath(path)}`, {
    query: opts.query,
    timeoutMs: opts.timeoutMs ?? 5_000,
    accept: '*/*',
    maxBytes: opts.maxBytes,
  });
}

/** An HTTP answer whose body is kept as its bytes (a reader that scans them needs no text). */
export interface BytesResponse {
  status: number;
  contentType: string;
  /** The body, a view into the raw answer read. */
  bytes: Buffer;
}

/** The answer with its body decoded as UTF-8 text. */
export function asText(r: BytesResponse): TextResponse {
  return { status: r.status, contentType: r.contentType, body: r.bytes.toString('utf8') };
}

/**
 * Splits a raw HTTP/1.1 response (Content-Length or chunked or read-to-close), the body left as
 * bytes. A chunked body is joined in place, in `raw` itself (its data is never longer than its
 * encoding): istiod's syncz at 20,000 proxies is some 14 MB, and a second copy of it, then its
 * text, were 28 MB more at the peak of every fleet view.
 */
export function parseHttpBytes(raw: Buffer): BytesResponse {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0)
    throw new KubeError('protocol', 'port-forward: incomplete HTTP response from the pod');
  const head = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const statusLine = head[0] ?? '';
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m)
    throw new KubeError(
      'protocol',
      `port-forward: not an HTTP response: ${statusLine.slice(0, 80)}`,
    );
  const headers = new Map<string, string>();
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  let body = raw.subarray(headEnd + 4);
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
    let pos = 0;
    let out = 0;
    while (pos < body.length) {
      const lineEnd = body.indexOf('\r\n', pos);
      if (lineEnd < 0) break;
      const size = parseInt(body.subarray(pos, lineEnd).toString('latin1'), 16);
      if (!Number.isFinite(size) || size === 0) break;
      const end = Math.min(body.length, lineEnd + 2 + size);
      // moved left over what was read already (copy handles the overlap)
      out += body.copy(body, out, lineEnd + 2, end);
      pos = lineEnd + 2 + size + 2;
    }
    body = body.subarray(0, out);
  } else if (headers.has('content-length')) {
    body = body.subarray(0, Number(headers.get('content-length')));
  }
  return { status: Number(m[1]), contentType: headers.get('content-type') ?? '', bytes: body };
}

/**
 * Ports read over pods/portforward: Envoy admin (bound to 127.0.0.1 in the pod) and istiod's
 * debug port (which skips authentication for local callers).
 */
export const PORT_FORWARD_PORTS: ReadonlySet<number> = new Set([ENVOY_ADMIN_PORT, 15014]);

/**
 * GET the Envoy admin API of a pod (127.0.0.1:15000 inside it) over pods/portforward, the way
 * `istioctl proxy-config` does. Only GETs are ever sent: Envoy's mutating admin endpoints are
 * POST-only and meshdx never calls them.
 */
export function envoyAdminGet(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  pathWithQuery: string,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<TextResponse> {
  return portForwardGet(kc, namespace, pod, ENVOY_ADMIN_PORT, pathWithQuery, opts);
}

/** portForwardGetBytes, the body decoded as UTF-8 text. */
export async function portForwardGet(
  ...args: Parameters<typeof portForwardGetBytes>
): Promise<TextResponse> {
  return asText(await portForwardGetBytes(...args));
}

/**
 * One HTTP GET to a pod port over pods/portforward (GET only; ports in PORT_FORWARD_PORTS),
 * within the budget of the transport made from `kc` (a token and a pods/proxy+port-forward
 * slot), its body as bytes (for a reader that scans them: istiod's syncz). A 429 on the upgrade
 * is waited out (1 s: client-node does not show the Retry-After of a refused upgrade) and asked
 * again, at most MAX_429_RETRIES times.
 */
export async function portForwardGetBytes(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  port: number,
  pathWithQuery: string,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<BytesResponse> {
  const budget = budgetOf(kc);
  for (let attempt = 0; ; attempt++) {
    const release = await budget.acquire('portforward');
    try {
      return await portForwardOnce(kc, namespace, pod, port, pathWithQuery, opts);
    } catch (e) {
      if (!(e instanceof KubeError && e.status === 429) || attempt >= MAX_429_RETRIES) throw e;
      budget.noteTooManyRequests(1_000);
      budget.noteRetry();
    } finally {
      release();
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

async function portForwardOnce(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  port: number,
  pathWithQuery: string,
  opts: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<BytesResponse> {
  if (!PORT_FORWARD_PORTS.has(port)) {
    throw new KubeError(
      'invalid-name',
      `port ${port} is not read over port-forward (allowed: ${[...PORT_FORWARD_PORTS].join(', ')})`,
    );
  }
  const ns = requireName('namespace', namespace);
  const name = requireName('pod', pod);
  if (
    !pathWithQuery.startsWith('/') ||
    /[\s]/.test(pathWithQuery) ||
    pathWithQuery.includes('..')
  ) {
    throw new KubeError('invalid-name', `invalid admin path ${JSON.stringify(pathWithQuery)}`);
  }
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const maxBytes = opts.maxBytes ?? 128 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  const errors: Buffer[] = [];
  const input = new PassThrough();
  const output = new Writable({
    write(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      cb();
    },
  });
  const errStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      errors.push(chunk);
      cb();
    },
  });
  const pf = new PortForward(kc, true);
  let ws: { close(): void; on(ev: 'close' | 'error', fn: (e?: unknown) => void): void } | undefined;
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws?.close();
      reject(
        new KubeError(
          'timeout',
          `port-forward to ${podKey(ns, name)}:${port} gave no complete answer within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    pf.portForward(ns, name, [port], output, errStream, input)
      .then((socket) => {
        ws = typeof socket === 'function' ? (socket() ?? undefined) : socket;
        if (!ws) throw new KubeError('unreachable', 'port-forward: no websocket');
        ws.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
        ws.on('error', (e) => {
          clearTimeout(timer);
          reject(
            new KubeError(
              'unreachable',
              `port-forward to ${podKey(ns, name)} failed: ${errorText(e)}`,
            ),
          );
        });
        input.write(
          `GET ${pathWithQuery} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUser-Agent: meshdx\r\nAccept: */*\r\nConnection: close\r\n\r\n`,
        );
      })
      .catch((e: unknown) => {
        clearTimeout(timer);
        const msg = errorText(e);
        const status = /Unexpected server response: (\d{3})/.exec(msg);
        reject(
          new KubeError(
            status ? 'http' : 'unreachable',
            `port-forward to ${podKey(ns, name)}:${port}: ${msg}`,
            {
              status: status ? Number(status[1]) : undefined,
            },
          ),
        );
      });
  });
  await done;
  if (size > maxBytes)
    throw new KubeError(
      'protocol',
      `admin response from ${podKey(ns, name)} exceeds ${maxBytes} bytes`,
    );
  // client-node strips the 2-byte port frame that opens each channel and passes on what is left,
  // an empty buffer: only bytes count as an answer. What the kubelet could not do (connection
  // refused inside the pod) arrives as text on the error channel.
  const why = Buffer.concat(errors).toString('utf8').trim();
  if (size === 0) {
    throw new KubeError(
      'unreachable',
      `port-forward to ${podKey(ns, name)}:${port}: ${why || 'connection closed without an answer'}`,
    );
  }
  const raw = Buffer.concat(chunks, size);
  // the pieces are in `raw` now: let them go before the answer is decoded
  chunks.length = 0;
  try {
    return parseHttpBytes(raw);
  } catch (e) {
    if (why === '') throw e;
    throw new KubeError('unreachable', `port-forward to ${podKey(ns, name)}:${port}: ${why}`);
  }
}
