import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { admit, handleSelfSubjectReview } from './auth';
import { handleSelfSubjectAccessReview } from './access-review';
import { sleep, type SimContext } from './context';
import { handleControl } from './control';
import { parseApiPath } from './paths';
import { createPortForwardServer, handlePortForwardUpgrade, rejectUpgrade } from './portforward';
import { routeApi } from './router';
import { failure, notFound, sendStatus } from './status';
import { rejectThrottled } from './throttle';
import { WatchRegistry } from './watch';

export interface ApiServer {
  server: http.Server;
  watches: WatchRegistry;
  /** Listen; resolves with the bound port. */
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export const SCENARIO_HEADER = 'X-Meshdx-Sim-Scenario';

/** The simulated API server: node:http for requests, ws (noServer) for port-forward upgrades. */
export function createApiServer(ctx: SimContext): ApiServer {
  const watches = new WatchRegistry(ctx.faults);
  const wss = createPortForwardServer(ctx.scenario);
  const sockets = new Set<Socket>();

  /** API faults: latency first, then maybe a 500. True when the request was failed. */
  async function injectFaults(res: ServerResponse | undefined): Promise<boolean> {
    if (ctx.faults.latencyMs > 0) await sleep(ctx.faults.latencyMs);
    if (ctx.faults.errorRate > 0 && ctx.random() < ctx.faults.errorRate) {
      if (res !== undefined) {
        sendStatus(
          res,
          failure(
            500,
            'InternalError',
            'Internal error occurred: injected by the meshdx simulator (errorRate fault)',
          ),
        );
      }
      return true;
    }
    return false;
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.setHeader(SCENARIO_HEADER, ctx.scenario);
    // as a real API server does, on its own (here: the simulated) clock
    res.setHeader('Date', ctx.clock.now().toUTCString());
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    if (url.pathname === '/_sim' || url.pathname.startsWith('/_sim/')) {
      return handleControl(ctx, req, res, url);
    }
    ctx.requests.note(req.method ?? 'GET', url, (end) => res.once('close', end));
    const admitted = admit(ctx, req, url);
    if ('refusal' in admitted) return sendStatus(res, admitted.refusal);
    const user = admitted.user;
    if (rejectThrottled(ctx, req.method ?? 'GET', url, res)) return;
    if (await injectFaults(res)) return;
    if (handleSelfSubjectReview(req, res, url, user)) return;
    if (await handleSelfSubjectAccessReview(ctx, req, res, url, user)) return;
    return routeApi(ctx, watches, req, res, url);
  }

  async function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.invalid');
    const parsed = parseApiPath(url.pathname);
    if (
      parsed.type !== 'resource' ||
      parsed.path.group !== '' ||
      parsed.path.resource !== 'pods' ||
      parsed.path.subresource !== 'portforward' ||
      parsed.path.namespace === undefined ||
      parsed.path.name === undefined
    ) {
      return rejectUpgrade(socket, notFound('upgrade', url.pathname), ctx.scenario);
    }
    ctx.requests.note('GET', url);
    const admitted = admit(ctx, req, url, true);
    if ('refusal' in admitted) return rejectUpgrade(socket, admitted.refusal, ctx.scenario);
    if (await injectFaults(undefined)) {
      return rejectUpgrade(
        socket,
        failure(500, 'InternalError', 'injected by the meshdx simulator'),
        ctx.scenario,
      );
    }
    handlePortForwardUpgrade(
      ctx,
      wss,
      req,
      socket,
      head,
      parsed.path.namespace,
      parsed.path.name,
      url.searchParams,
    );
  }

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      console.error('[sim api] request failed:', err);
      sendStatus(
        res,
        failure(500, 'InternalError', err instanceof Error ? err.message : String(err)),
      );
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    onUpgrade(req, socket, head).catch((err: unknown) => {
      console.error('[sim api] upgrade failed:', err);
      socket.destroy();
    });
  });

  return {
    server,
    watches,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const addr = server.address();
          resolve(typeof addr === 'object' && addr !== null ? addr.port : port);
        });
      });
    },
    close() {
      watches.endAll();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      return new Promise((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
