/**
 * Follows one container's log (pods/log?follow=true) and hands over each complete line as it
 * arrives. KubeTransport reads whole bodies only, so this opens its own request on the same
 * API server URL (`t.url`) with the kubeconfig's own credentials and TLS settings
 * (applyToHTTPSOptions, as the transport does). Aborting the signal ends the request: no follow
 * is left open on the API server. Open follows are counted in the runtime, so tests can prove it.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { requireName } from '../../../lib/kube/names';
import type { KubeTransport } from '../../kube/transport';
import { defineScreen, type ClusterRuntime } from '../../runtime/runtime';

/** How many log follows are open, kept by their owner (the runtime's Incidents state). */
export interface FollowCount {
  open: number;
}

const followsScreen = defineScreen<FollowCount>('incidents-follows', () => ({ open: 0 }));

/** The count of a runtime's log follows. */
export function followCount(rt: ClusterRuntime): FollowCount {
  return rt.screen(followsScreen);
}

/** Log follows the runtime holds open right now. */
export function openFollows(rt: ClusterRuntime): number {
  return followCount(rt).open;
}

export interface FollowOptions {
  container: string;
  /** RFC 3339: lines at or after it (the kubelet's sinceTime). Absent: from now on. */
  sinceTime?: string;
  signal: AbortSignal;
  /** One line, without its newline. */
  onLine: (line: string) => void;
  /** Longest line kept (a longer one is cut, the rest skipped up to its newline). */
  maxLineBytes?: number;
  /** Counts the follow while it is open. */
  count: FollowCount;
}

/** An API server's refusal of a follow: its HTTP status and the Status object's message. */
export class FollowError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${status} from ${path}: ${reason}`);
    this.name = 'FollowError';
  }
}

/** The message of a Kubernetes Status body, else the body's start (never raw JSON). */
export function statusMessage(body: string): string {
  const text = body.trim();
  try {
    const s = JSON.parse(text) as { message?: unknown };
    if (typeof s.message === 'string' && s.message) return s.message;
  } catch {
    // not a Status object: its text, shortened
  }
  return text.slice(0, 300);
}

/** Resolves when the follow ends (server closed it, pod gone, or aborted); rejects on HTTP errors. */
export async function followLog(
  t: KubeTransport,
  kc: KubeConfig,
  namespace: string,
  pod: string,
  opts: FollowOptions,
): Promise<void> {
  const ns = requireName('namespace', namespace);
  const name = requireName('pod', pod);
  const url = t.url(`/api/v1/namespaces/${ns}/pods/${name}/log`, {
    container: requireName('container', opts.container),
    follow: true,
    sinceTime: opts.sinceTime,
    tailLines: opts.sinceTime ? undefined : 0,
  });
  if (opts.signal.aborted) return;
  const auth: https.RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(auth);
  const isHttps = url.protocol === 'https:';
  const maxLine = opts.maxLineBytes ?? 64 * 1024;
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = (e?: Error) => {
      if (done) return;
      done = true;
      opts.count.open--;
      opts.signal.removeEventListener('abort', onAbort);
      if (e) reject(e);
      else resolve();
    };
    const req = (isHttps ? https : http).request(
      url,
      {
        ...(isHttps ? auth : {}),
        method: 'GET',
        headers: {
          ...(auth.headers as Record<string, string>),
          Accept: 'text/plain',
          'User-Agent': 'meshdx',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 400) {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            if (body.length < 2000) body += c;
          });
          res.on('end', () => finish(new FollowError(status, url.pathname, statusMessage(body))));
          return;
        }
        let pending = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          pending += chunk;
          let nl = pending.indexOf('\n');
          while (nl >= 0) {
            opts.onLine(pending.slice(0, nl).slice(0, maxLine));
            pending = pending.slice(nl + 1);
            nl = pending.indexOf('\n');
          }
          if (pending.length > maxLine) pending = pending.slice(0, maxLine);
        });
        res.on('end', () => finish());
        res.on('close', () => finish());
        res.on('error', (e) => finish(opts.signal.aborted ? undefined : e));
      },
    );
    const onAbort = () => {
      req.destroy();
      finish();
    };
    opts.count.open++;
    opts.signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => finish(opts.signal.aborted ? undefined : e));
    req.end();
  });
}
