import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredBodyProblem, MAX_REQUEST_BODY_BYTES } from '../../server/security/body-limit';
import { guardDashboardServer } from '../../server/security/dashboard-server';
import { MAX_UPLOAD_BYTES } from '../../server/screens/incidents/upload';

/**
 * A declared body over the limit is refused at the Node server before anything reads it: the
 * handler behind it (Next, which waits for the whole body) never runs. The server here reads
 * every body to its end as Next does, so a request that reached it would hang.
 */
let server: http.Server;
let port = 0;
const saved = { ...process.env };

beforeAll(async () => {
  process.env.MESHDX_ALLOWED_HOSTS = '';
  guardDashboardServer();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res.end(`read ${Buffer.concat(chunks).length}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  process.env = { ...saved };
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A request the server answers at once is refused well within this (a guard, docs/testing.md). */
const REFUSED_GUARD_MS = 10_000;
/** The client gives up on a server that does not answer after this long. */
const NO_ANSWER_MS = 3 * REFUSED_GUARD_MS;

/** Sends raw request head and body bytes, and reads what comes back until the server closes. */
function raw(head: string, body: string): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head + body));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', reject);
    socket.setTimeout(NO_ANSWER_MS, () => socket.destroy());
  });
}

describe('declared request body lengths', () => {
  it('the bound holds every body a route takes', () => {
    expect(MAX_UPLOAD_BYTES).toBeLessThanOrEqual(MAX_REQUEST_BODY_BYTES);
    expect(declaredBodyProblem(String(MAX_REQUEST_BODY_BYTES))).toBeNull();
    expect(declaredBodyProblem(undefined)).toBeNull();
    expect(declaredBodyProblem(String(MAX_REQUEST_BODY_BYTES + 1))?.status).toBe(413);
  });

  it('a POST declaring 200 MB and sending 3 bytes is a 413 at once, naming the length', async () => {
    const { text, ms } = await raw(
      'POST /api/incidents/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 209715200\r\n\r\n',
      'abc',
    );
    // the client never sends the rest of the 200 MB: only a server that refuses before reading
    // the body answers at all; the time is a guard, not a measure
    expect(ms).toBeLessThan(REFUSED_GUARD_MS);
    expect(text.startsWith('HTTP/1.1 413')).toBe(true);
    expect(text).toContain('"code":"PAYLOAD_TOO_LARGE"');
    expect(text).toContain('Content-Length declares 209715200 bytes');
    expect(text.toLowerCase()).toContain('x-content-type-options: nosniff');
    expect(text.toLowerCase()).toContain('connection: close');
  });

  it('a foreign Host is a 421 first, with the headers', async () => {
    const { text } = await raw(
      'POST /api/incidents/upload HTTP/1.1\r\nHost: evil.example\r\nContent-Length: 209715200\r\n\r\n',
      'abc',
    );
    expect(text.startsWith('HTTP/1.1 421')).toBe(true);
    expect(text).toContain('HOST_NOT_ALLOWED');
    expect(text.toLowerCase()).toContain('content-security-policy:');
  });

  it('a body within the limit reaches the handler whole', async () => {
    const { text } = await raw(
      'POST /api/incidents/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\n',
      'abc',
    );
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(text).toContain('read 3');
  });

  it("bounds the server's request timeout", () => {
    expect(server.requestTimeout).toBeGreaterThan(0);
    expect(server.requestTimeout).toBeLessThanOrEqual(60_000);
  });
});
