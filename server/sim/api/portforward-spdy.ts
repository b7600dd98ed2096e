/**
 * pods/NAME/portforward as `kubectl port-forward` speaks it: SPDY/3.1 (protocol
 * portforward.k8s.io), either over the upgraded connection itself or tunnelled in a websocket
 * (sub-protocol SPDY/3.1+portforward.k8s.io, kubectl's default since 1.31). Each forwarded
 * connection is a pair of client streams with the same requestID: "error" (what the kubelet
 * reports) and "data" (the bytes). What the client writes on a data stream is an HTTP/1.1
 * request to the pod's port; the mesh emulator answers it on the stream, which then ends, as
 * the kubelet ends it when the pod closes the connection.
 */
import type { Pod } from '../../../lib/kube/types';
import type { SimContext } from './context';
import { HttpRequestReader } from './httpreq';
import { answerPortRequest } from './podport';
import {
  dataFrames,
  goAwayFrame,
  HeaderBlockReader,
  HeaderBlockWriter,
  pingFrame,
  readSynStream,
  RST,
  rstStreamFrame,
  SpdyFrameReader,
  streamIdOf,
  synReplyFrame,
  TYPE,
  type SpdyFrame,
} from './spdy';

/** The one protocol version served, in X-Stream-Protocol-Version and the websocket tunnel's name. */
export const PORTFORWARD_SPDY_PROTOCOL = 'portforward.k8s.io';
export const SPDY_TUNNEL_PROTOCOL = `SPDY/3.1+${PORTFORWARD_SPDY_PROTOCOL}`;

/** Bytes in and out of a SPDY session, whatever carries them (a socket, websocket messages). */
export interface ByteTransport {
  send(bytes: Buffer): void;
  /** Ends the connection. */
  close(): void;
  onBytes(listener: (bytes: Buffer) => void): void;
  onClose(listener: () => void): void;
}

interface Forward {
  port: number;
  dataStream?: number;
  errorStream?: number;
  reader: HttpRequestReader;
  answered: boolean;
}

/** Serves one port-forward SPDY session for `pod` until the client or the transport ends it. */
export function serveSpdyPortForward(ctx: SimContext, pod: Pod, t: ByteTransport): void {
  const frames = new SpdyFrameReader();
  const headersIn = new HeaderBlockReader();
  const headersOut = new HeaderBlockWriter();
  const forwards = new Map<string, Forward>();
  /** stream id → its forward's requestID */
  const streams = new Map<number, string>();
  let lastStream = 0;
  let open = true;
  // frames are handled one after another: header blocks share one inflate stream
  let queue: Promise<void> = Promise.resolve();

  const send = (b: Buffer) => {
    if (open) t.send(b);
  };
  const end = (why?: string) => {
    if (!open) return;
    if (why !== undefined) {
      console.error(`[sim portforward] ${why}`);
      t.send(goAwayFrame(lastStream, 1));
    }
    open = false;
    headersIn.close();
    t.close();
  };
  const finish = (streamId: number | undefined) => {
    if (streamId === undefined) return;
    for (const f of dataFrames(streamId, Buffer.alloc(0), true)) send(f);
    streams.delete(streamId);
  };

  async function onSynStream(frame: SpdyFrame & { kind: 'control' }): Promise<void> {
    const { streamId, headerBlock } = readSynStream(frame.payload);
    lastStream = Math.max(lastStream, streamId);
    const headers = await headersIn.read(headerBlock);
    const one = (name: string) => headers.get(name)?.[0];
    const type = one('streamtype');
    const portText = one('port') ?? '';
    const requestId = one('requestid');
    const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
    if ((type !== 'data' && type !== 'error') || !(port >= 1 && port <= 65535) || !requestId) {
      send(rstStreamFrame(streamId, RST.PROTOCOL_ERROR));
      return;
    }
    let f = forwards.get(requestId);
    if (f === undefined) {
      f = { port, reader: new HttpRequestReader(), answered: false };
      forwards.set(requestId, f);
    }
    if (f.port !== port || (type === 'data' ? f.dataStream : f.errorStream) !== undefined) {
      send(rstStreamFrame(streamId, RST.PROTOCOL_ERROR));
      return;
    }
    if (type === 'data') f.dataStream = streamId;
    else f.errorStream = streamId;
    streams.set(streamId, requestId);
    send(synReplyFrame(streamId, headersOut.write([])));
  }

  function onData(streamId: number, payload: Buffer): void {
    const requestId = streams.get(streamId);
    const f = requestId === undefined ? undefined : forwards.get(requestId);
    // a stream already ended (the client's FIN after ours): dropped, as spdystream drops it
    if (requestId === undefined || f === undefined) return;
    // the client writes nothing on an error stream; after the answer, nothing is read (a FIN
    // from the client only says it will write no more)
    if (streamId !== f.dataStream || f.answered || payload.length === 0) return;
    const r = f.reader.feed(payload);
    if (r.state === 'more') return;
    f.answered = true;
    // answered aside: a slow pod holds up its own connection, not the session's other ones
    void answerPortRequest(ctx, pod, f.port, r).then(
      (got) => {
        if ('error' in got && f.errorStream !== undefined)
          for (const b of dataFrames(f.errorStream, Buffer.from(got.error), false)) send(b);
        if ('data' in got) for (const b of dataFrames(streamId, got.data, false)) send(b);
        finish(f.dataStream);
        finish(f.errorStream);
        forwards.delete(requestId);
      },
      (e: unknown) => end(e instanceof Error ? e.message : String(e)),
    );
  }

  async function onFrame(frame: SpdyFrame): Promise<void> {
    if (frame.kind === 'data') return onData(frame.streamId, frame.payload);
    switch (frame.type) {
      case TYPE.SYN_STREAM:
        return onSynStream(frame);
      case TYPE.HEADERS:
        // read to keep the header stream in step; port-forward sends no trailers that matter
        await headersIn.read(frame.payload.subarray(4));
        return;
      case TYPE.RST_STREAM: {
        const id = streamIdOf(frame.payload);
        const requestId = streams.get(id);
        streams.delete(id);
        if (requestId !== undefined) forwards.delete(requestId);
        return;
      }
      case TYPE.PING:
        send(pingFrame(frame.payload.readUInt32BE(0)));
        return;
      case TYPE.GOAWAY:
        return end();
      default:
        // SETTINGS, WINDOW_UPDATE: nothing here is flow-controlled
        return;
    }
  }

  t.onBytes((bytes) => {
    if (!open) return;
    let got: SpdyFrame[];
    try {
      got = frames.push(bytes);
    } catch (e) {
      return end(e instanceof Error ? e.message : String(e));
    }
    for (const frame of got) {
      queue = queue
        .then(() => (open ? onFrame(frame) : undefined))
        .catch((e: unknown) => end(e instanceof Error ? e.message : String(e)));
    }
  });
  t.onClose(() => {
    open = false;
    headersIn.close();
  });
}
