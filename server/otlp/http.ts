/**
 * OTLP/HTTP: `POST /v1/logs` with an ExportLogsServiceRequest in protobuf
 * (`application/x-protobuf`) or OTLP/JSON (`application/json`), gzip or not, for an
 * OpenTelemetry Collector between the proxies and meshdx. Errors answer with a google.rpc.Status
 * in the request's encoding: 400 malformed (a protobuf the wire format does not allow included),
 * 403 sender not allowed, 413 too large, 415 not an
 * OTLP content type, 429 past the rate bound (Retry-After), 503 not stored (Retry-After).
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { ExportOutcome, OtlpIngest } from './ingest';
import { peerIp } from './peer';
import { ownProtocol } from '../security/dashboard-server';
import { checkWireFormat } from './wire';
import {
  decodeLogsRequest,
  decodeLogsRequestJson,
  encodeLogsResponse,
  encodeStatus,
  logsResponseJson,
  OtlpDecodeError,
  statusJson,
  type RpcStatus,
} from './schema';

/** google.rpc.Code values used in the Status bodies. */
const CODE = {
  INVALID_ARGUMENT: 3,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
} as const;

type Encoding = 'protobuf' | 'json';

function send(
  res: http.ServerResponse,
  status: number,
  enc: Encoding,
  body: Uint8Array | string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': enc === 'json' ? 'application/json' : 'application/x-protobuf',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  res.end(body);
}

function sendStatus(res: http.ServerResponse, code: number, enc: Encoding, s: RpcStatus): void {
  const headers: Record<string, string> =
    s.retryAfterMs !== undefined ? { 'retry-after': String(Math.ceil(s.retryAfterMs / 1000)) } : {};
  send(res, code, enc, enc === 'json' ? statusJson(s) : encodeStatus(s), headers);
}

function answer(res: http.ServerResponse, enc: Encoding, outcome: ExportOutcome): void {
  switch (outcome.kind) {
    case 'ok':
      send(
        res,
        200,
        enc,
        enc === 'json' ? logsResponseJson(outcome.partial) : encodeLogsResponse(outcome.partial),
      );
      return;
    case 'denied':
      sendStatus(res, 403, enc, { code: CODE.PERMISSION_DENIED, message: outcome.reason });
      return;
    case 'exhausted':
      sendStatus(res, 429, enc, {
        code: CODE.RESOURCE_EXHAUSTED,
        message: outcome.reason,
        retryAfterMs: outcome.retryAfterMs,
      });
      return;
    case 'invalid':
      sendStatus(res, 400, enc, { code: CODE.INVALID_ARGUMENT, message: outcome.reason });
      return;
    case 'failed':
      sendStatus(res, 503, enc, {
        code: CODE.UNAVAILABLE,
        message: outcome.reason,
        retryAfterMs: 5000,
      });
  }
}

function encodingOf(contentType: string | undefined): Encoding | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

class TooLarge extends Error {}

/** The body, gunzipped when sent so, refused past `max` bytes before reading further. */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      reject(new TooLarge(`body of ${declared} bytes is larger than ${max}`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new TooLarge(`body larger than ${max} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('error', reject);
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const coding = String(req.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (coding === 'identity' || coding === '') return resolve(raw);
      if (coding !== 'gzip')
        return reject(
          new OtlpDecodeError(`Content-Encoding ${coding} is not supported (gzip or none)`),
        );
      zlib.gunzip(raw, { maxOutputLength: max }, (err, out) => {
        if (!err) return resolve(out);
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          return reject(new TooLarge(`body larger than ${max} bytes once decompressed`));
        reject(new OtlpDecodeError(`gzip body cannot be read: ${err.message}`));
      });
    });
  });
}

export interface HttpListener {
  port: number;
  stop(): Promise<void>;
}

export async function startHttpReceiver(
  ingest: OtlpIngest,
  host: string,
  port: number,
  maxBodyBytes: number,
): Promise<HttpListener> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const enc = encodingOf(req.headers['content-type']) ?? 'json';
    if (path !== '/v1/logs') {
      sendStatus(res, 404, enc, {
        code: CODE.UNIMPLEMENTED,
        message: `${path}: this receiver takes OTLP logs at /v1/logs`,
      });
      return;
    }
    if (req.method !== 'POST') {
      sendStatus(res, 405, enc, {
        code: CODE.UNIMPLEMENTED,
        message: `${req.method ?? '?'} /v1/logs: only POST`,
      });
      return;
    }
    if (encodingOf(req.headers['content-type']) === null) {
      sendStatus(res, 415, 'json', {
        code: CODE.INVALID_ARGUMENT,
        message: `Content-Type ${req.headers['content-type'] ?? '(none)'}: send application/x-protobuf or application/json`,
      });
      req.resume();
      return;
    }
    readBody(req, maxBodyBytes).then(
      (body) => {
        let request;
        try {
          if (enc === 'protobuf') checkWireFormat(body);
          request =
            enc === 'json' ? decodeLogsRequestJson(body.toString('utf8')) : decodeLogsRequest(body);
        } catch (e) {
          const reason = e instanceof Error ? e.message : String(e);
          ingest.invalid(reason);
          sendStatus(res, 400, enc, { code: CODE.INVALID_ARGUMENT, message: reason });
          return;
        }
        answer(res, enc, ingest.export(peerIp(req.socket.remoteAddress), request));
      },
      (e: unknown) => {
        const reason = e instanceof Error ? e.message : String(e);
        ingest.invalid(reason);
        if (res.headersSent || res.destroyed) return;
        // a body refused unread is not read to its end: the connection is closed after the answer
        if (e instanceof TooLarge) res.setHeader('connection', 'close');
        sendStatus(res, e instanceof TooLarge ? 413 : 400, enc, {
          code: CODE.INVALID_ARGUMENT,
          message: reason,
        });
      },
    );
  });
  // the dashboard's guards (Host check, its method table, its body bound) are not this port's
  ownProtocol(server);
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  const bound = await new Promise<number>((resolve, reject) => {
    server.once('error', (err) =>
      reject(new Error(`OTLP/HTTP receiver cannot listen on ${host}:${port}: ${err.message}`)),
    );
    server.listen(port, host, () => {
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : port);
    });
  });
  return {
    port: bound,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
