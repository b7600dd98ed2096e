import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Pod } from '../../../lib/kube/types';
import type { SimContext } from './context';
import { HttpRequestReader } from './httpreq';
import { answerPortRequest, podNotReachable } from './podport';
import {
  PORTFORWARD_SPDY_PROTOCOL,
  serveSpdyPortForward,
  SPDY_TUNNEL_PROTOCOL,
  type ByteTransport,
} from './portforward-spdy';
import { badRequest, failure, notFound, type StatusObject } from './status';

/** Sub-protocols we speak, preferred first (client-node offers v5, v4, v3, v2, channel.k8s.io). */
export const PORTFORWARD_PROTOCOLS = ['v4.channel.k8s.io', 'channel.k8s.io', 'v5.channel.k8s.io'];

export function choosePortForwardProtocol(offered: Iterable<string>): string | undefined {
  const set = new Set(offered);
  return PORTFORWARD_PROTOCOLS.find((p) => set.has(p));
}

/**
 * ws refuses "SPDY/3.1+portforward.k8s.io" as a sub-protocol ("/" is no token character in RFC
 * 6455's grammar), which Kubernetes and kubectl use all the same: the upgrade goes through ws
 * under this stand-in name, and the answer names the protocol as kubectl asked it.
 */
const TUNNEL_TOKEN = 'SPDY-3.1+portforward.k8s.io';

export function createPortForwardServer(scenario: string): WebSocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    // kubectl offers only the SPDY tunnel, client-node only the channel protocols
    handleProtocols: (protocols) =>
      protocols.has(TUNNEL_TOKEN) ? TUNNEL_TOKEN : (choosePortForwardProtocol(protocols) ?? false),
  });
  wss.on('headers', (headers) => {
    for (let i = 0; i < headers.length; i++)
      if (headers[i] === `Sec-WebSocket-Protocol: ${TUNNEL_TOKEN}`)
        headers[i] = `Sec-WebSocket-Protocol: ${SPDY_TUNNEL_PROTOCOL}`;
    headers.push(`X-Meshdx-Sim-Scenario: ${scenario}`);
  });
  return wss;
}

/** Answer an upgrade request with a plain HTTP error (before any websocket exists). */
export function rejectUpgrade(socket: Duplex, s: StatusObject, scenario: string): void {
  const body = JSON.stringify(s);
  socket.end(
    `HTTP/1.1 ${s.code} ${STATUS_CODES[s.code] ?? 'Error'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Meshdx-Sim-Scenario: ${scenario}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `?ports=15000&ports=15020` or `?ports=15000,15020`. */
export function parsePorts(q: URLSearchParams): number[] | string {
  const raw = q.getAll('ports').flatMap((p) => p.split(','));
  if (raw.length === 0) return 'at least 1 port must be specified';
  const out: number[] = [];
  for (const r of raw) {
    const t = r.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > 65535) return `invalid port "${t}"`;
    out.push(Number(t));
  }
  return out;
}

const frame = (channel: number, data: Buffer): Buffer =>
  Buffer.concat([Buffer.from([channel]), data]);
const portFrame = (channel: number, port: number): Buffer =>
  Buffer.from([channel, port & 0xff, (port >> 8) & 0xff]);

/**
 * pods/NAME/portforward over a websocket (channel protocol): per forwarded port i, data on channel
 * 2i and errors on 2i+1, each opened by a frame carrying the port (little-endian uint16). What the
 * client writes on a data channel is an HTTP/1.1 request to the pod's port; the mesh emulator
 * answers it, the answer goes back on the same channel and the websocket closes.
 */
export function handlePortForwardUpgrade(
  ctx: SimContext,
  wss: WebSocketServer,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  namespace: string,
  name: string,
  query: URLSearchParams,
): void {
  const pod = ctx.store.get<Pod>('pods', namespace, name);
  if (pod === undefined) return rejectUpgrade(socket, notFound('pods', name), ctx.scenario);
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
  const spdy = String(req.headers.upgrade ?? '').toLowerCase() === 'spdy/3.1';
  if (spdy || offered.includes(SPDY_TUNNEL_PROTOCOL)) {
    // kubectl: the ports come in each stream's headers, not in the query
    const why = podNotReachable(pod);
    if (why !== undefined)
      return rejectUpgrade(socket, failure(503, 'ServiceUnavailable', why), ctx.scenario);
    if (spdy) return upgradeToSpdy(ctx, req, socket, head, pod);
    req.headers['sec-websocket-protocol'] = TUNNEL_TOKEN;
    return wss.handleUpgrade(req, socket, head, (ws) =>
      serveSpdyPortForward(ctx, pod, websocketBytes(ws)),
    );
  }
  const ports = parsePorts(query);
  if (typeof ports === 'string') return rejectUpgrade(socket, badRequest(ports), ctx.scenario);
  const why = podNotReachable(pod);
  if (why !== undefined) {
    return rejectUpgrade(socket, failure(503, 'ServiceUnavailable', why), ctx.scenario);
  }
  if (choosePortForwardProtocol(offered) === undefined) {
    return rejectUpgrade(
      socket,
      badRequest(
        `unsupported websocket sub-protocols [${offered.join(' ')}], want ${PORTFORWARD_PROTOCOLS.join(' or ')}`,
      ),
      ctx.scenario,
    );
  }
  wss.handleUpgrade(req, socket, head, (ws) => serveForward(ctx, ws, pod, ports));
}

/**
 * The SPDY/3.1 upgrade (kubectl without the websocket tunnel): 101 with the negotiated
 * protocol version, then SPDY frames on the connection itself.
 */
function upgradeToSpdy(
  ctx: SimContext,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  pod: Pod,
): void {
  const versions = String(req.headers['x-stream-protocol-version'] ?? '')
    .split(',')
    .map((v) => v.trim());
  if (!versions.includes(PORTFORWARD_SPDY_PROTOCOL)) {
    return rejectUpgrade(
      socket,
      badRequest(
        `unable to negotiate a port-forward protocol from [${versions.join(' ')}], want ${PORTFORWARD_SPDY_PROTOCOL}`,
      ),
      ctx.scenario,
    );
  }
  socket.write(
    'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n' +
      `X-Stream-Protocol-Version: ${PORTFORWARD_SPDY_PROTOCOL}\r\n` +
      `X-Meshdx-Sim-Scenario: ${ctx.scenario}\r\n\r\n`,
  );
  serveSpdyPortForward(ctx, pod, {
    send: (b) => void socket.write(b),
    close: () => void socket.end(),
    onBytes: (listener) => {
      if (head.length > 0) queueMicrotask(() => listener(head));
      socket.on('data', (b: Buffer) => listener(b));
    },
    onClose: (listener) => void socket.once('close', listener),
  });
}

/** A websocket's binary messages as the bytes of one stream (the SPDY tunnel). */
function websocketBytes(ws: WebSocket): ByteTransport {
  return {
    send: (b) => {
      if (ws.readyState === ws.OPEN) ws.send(b);
    },
    close: () => ws.close(1000),
    onBytes: (listener) =>
      void ws.on('message', (data: RawData, isBinary: boolean) => {
        if (!isBinary) return;
        listener(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer));
      }),
    onClose: (listener) => {
      ws.once('close', listener);
      ws.on('error', () => ws.terminate());
    },
  };
}

function serveForward(ctx: SimContext, ws: WebSocket, pod: Pod, ports: number[]): void {
  ports.forEach((port, i) => {
    ws.send(portFrame(2 * i, port));
    ws.send(portFrame(2 * i + 1, port));
  });
  const readers = new Map<number, HttpRequestReader>();
  const busy = new Set<number>();

  const closeWhenIdle = (): void => {
    if (busy.size === 0 && ws.readyState === ws.OPEN) ws.close(1000);
  };

  async function answer(i: number, port: number, reader: HttpRequestReader, chunk: Buffer) {
    const r = reader.feed(chunk);
    if (r.state === 'more') return;
    readers.delete(i);
    busy.add(i);
    try {
      const got = await answerPortRequest(ctx, pod, port, r);
      if (ws.readyState !== ws.OPEN) return;
      if ('error' in got) ws.send(frame(2 * i + 1, Buffer.from(got.error)));
      else ws.send(frame(2 * i, got.data));
    } finally {
      busy.delete(i);
      closeWhenIdle();
    }
  }

  ws.on('message', (data: RawData, isBinary: boolean) => {
    if (!isBinary) return;
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    const channel = buf[0];
    if (channel === undefined || channel % 2 !== 0 || channel / 2 >= ports.length) return;
    const i = channel / 2;
    const port = ports[i];
    if (port === undefined || busy.has(i)) return;
    let reader = readers.get(i);
    if (reader === undefined) {
      reader = new HttpRequestReader();
      readers.set(i, reader);
    }
    void answer(i, port, reader, buf.subarray(1));
  });
  ws.on('error', () => ws.terminate());
}
