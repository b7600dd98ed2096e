import { STATUS_CODES } from 'node:http';

/** An HTTP/1.x request read from a byte stream (what a port-forward client writes). */
export interface RawHttpRequest {
  method: string;
  target: string;
  version: string;
  headers: Record<string, string>;
}

export type FeedResult =
  | { state: 'more' }
  | { state: 'done'; request: RawHttpRequest }
  | { state: 'error'; error: string };

const MAX_HEAD = 64 * 1024;

/**
 * Incremental parser for one request: feed it chunks as they arrive (they may split anywhere);
 * it answers 'done' once the head and any Content-Length body are complete.
 */
export class HttpRequestReader {
  private buf = Buffer.alloc(0);
  private head: RawHttpRequest | undefined;
  private bodyNeeded = 0;
  private bodyStart = 0;

  feed(chunk: Buffer): FeedResult {
    this.buf = Buffer.concat([this.buf, chunk]);
    if (this.head === undefined) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) {
        return this.buf.length > MAX_HEAD
          ? { state: 'error', error: 'request head too large' }
          : { state: 'more' };
      }
      const parsed = parseHead(this.buf.subarray(0, end).toString('latin1'));
      if (typeof parsed === 'string') return { state: 'error', error: parsed };
      this.head = parsed;
      this.bodyStart = end + 4;
      const cl = parsed.headers['content-length'];
      if (cl !== undefined) {
        if (!/^\d+$/.test(cl)) return { state: 'error', error: `bad Content-Length "${cl}"` };
        this.bodyNeeded = Number(cl);
      }
      if (parsed.headers['transfer-encoding'] !== undefined) {
        return { state: 'error', error: 'chunked request bodies are not supported' };
      }
    }
    if (this.buf.length - this.bodyStart < this.bodyNeeded) return { state: 'more' };
    return { state: 'done', request: this.head };
  }
}

function parseHead(text: string): RawHttpRequest | string {
  const lines = text.split('\r\n');
  const first = lines[0] ?? '';
  const m = /^([A-Z]+) (\S+) (HTTP\/1\.[01])$/.exec(first);
  if (m === null) return `malformed request line "${first.slice(0, 100)}"`;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i <= 0) return `malformed header line "${line.slice(0, 100)}"`;
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { method: m[1] ?? '', target: m[2] ?? '', version: m[3] ?? '', headers };
}

/** Split a request target into path and query. */
export function splitTarget(target: string): { path: string; query: URLSearchParams } {
  const u = new URL(target, 'http://localhost');
  return { path: u.pathname, query: u.searchParams };
}

/** A complete HTTP/1.1 response that closes the connection. */
export function httpResponse(status: number, contentType: string, body: string, now: Date): Buffer {
  const payload = Buffer.from(body, 'utf8');
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n` +
    `content-type: ${contentType}\r\n` +
    `content-length: ${payload.length}\r\n` +
    `date: ${now.toUTCString()}\r\n` +
    `server: envoy\r\n` +
    `connection: close\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}
