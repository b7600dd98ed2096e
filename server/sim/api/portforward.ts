import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Pod } from '../../../lib/kube/types';
import { sleep, type SimContext } from './context';
import { httpResponse, HttpRequestReader, splitTarget } from './httpreq';
import { askMesh, podKey, podNotReachable, refusedDial } from './podport';
import { badRequest, failure, notFound, type StatusObject } from './status';

/** Sub-protocols we speak, preferred first (client-node offers v5, v4, v3, v2, channel.k8s.io). */
export const PORTFORWARD_PROTOCOLS = ['v4.channel.k8s.io', 'channel.k8s.io', 'v5.channel.k8s.io'];

export function choosePortForwardProtocol(offered: Iterable<string>): string | undefined {
  const set = new Set(offered);
  return PORTFORWARD_PROTOCOLS.find((p) => set.has(p));
}

export function createPortForwardServer(scenario: string): WebSocketServer {
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => choosePortForwardProtocol(protocols) ?? false,
  });
  wss.on('headers', (headers) => headers.push(`X-Meshdx-Sim-Scenario: ${scenario}`));
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
  const ports = parsePorts(query);
  if (typeof ports === 'string') return rejectUpgrade(socket, badRequest(ports), ctx.scenario);
  const why = podNotReachable(pod);
  if (why !== undefined) {
    return rejectUpgrade(socket, failure(503, 'ServiceUnavailable', why), ctx.scenario);
  }
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim());
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
      if (ctx.faults.unreachablePods.has(podKey(pod))) {
        const msg = `error forwarding port ${port} to pod ${podKey(pod)}, uid ${pod.metadata.uid ?? ''}: failed to connect to localhost:${port} inside namespace: connect: connection refused`;
        ws.send(frame(2 * i + 1, Buffer.from(msg)));
        return;
      }
      const slow = ctx.faults.slowPods.get(podKey(pod)) ?? 0;
      if (slow > 0) await sleep(slow);
      let bytes: Buffer;
      if (r.state === 'error') {
        bytes = httpResponse(400, 'text/plain', `${r.error}\n`, ctx.clock.now());
      } else if (r.request.method !== 'GET') {
        bytes = httpResponse(405, 'text/plain', 'only GET is served\n', ctx.clock.now());
      } else {
        const { path, query } = splitTarget(r.request.target);
        const a = askMesh(ctx, pod, port, path, query);
        if (refusedDial(a) !== undefined) {
          // nothing listens there: the kubelet says so on the error channel, no bytes on data
          const msg = `error forwarding port ${port} to pod ${podKey(pod)}, uid ${pod.metadata.uid ?? ''}: failed to connect to localhost:${port} inside namespace: connect: connection refused`;
          ws.send(frame(2 * i + 1, Buffer.from(msg)));
          return;
        }
        bytes = httpResponse(a.status, a.contentType, a.body, ctx.clock.now());
      }
      if (ws.readyState === ws.OPEN) ws.send(frame(2 * i, bytes));
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
