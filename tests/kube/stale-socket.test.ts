import { KubeConfig } from '@kubernetes/client-node';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeTransport } from '../../server/kube/transport';

/**
 * An API server that closes a kept-alive connection as the client's next request arrives: the
 * race of its idle timeout with a request going out on that socket (the client sees ECONNRESET
 * on a reused socket, before any answer). `resetFresh`: it also resets requests on new
 * connections, as a server that is going away does.
 */
function server(resetFresh: boolean): Promise<{ port: number; seen: string[]; close(): void }> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const srv = net.createServer((socket) => {
    sockets.add(socket);
    let served = 0;
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        // a body by its length, or chunked up to the last chunk
        let bodyEnd: number;
        if (/transfer-encoding: *chunked/i.test(head)) {
          const last = buf.indexOf('\r\n0\r\n\r\n', end);
          if (last < 0) return;
          bodyEnd = last + 7;
        } else {
          bodyEnd = end + 4 + Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (buf.length < bodyEnd) return;
        }
        buf = buf.slice(bodyEnd);
        const line = head.split('\r\n')[0] ?? '';
        if (served > 0 || resetFresh) {
          // a request on a connection already used once (or any, when going away): reset
          seen.push(`reset ${line}`);
          socket.resetAndDestroy();
          return;
        }
        served++;
        seen.push(`answered ${line}`);
        const body = '{"kind":"Status","status":"Success"}';
        socket.write(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: keep-alive\r\n\r\n${body}`,
        );
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    srv.listen(0, '127.0.0.1', () =>
      resolve({
        port: (srv.address() as net.AddressInfo).port,
        seen,
        close: () => {
          for (const s of sockets) s.destroy();
          srv.close();
        },
      }),
    ),
  );
}

function transportOf(port: number): KubeTransport {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return new KubeTransport(kc);
}

const open: { close(): void }[] = [];
afterEach(() => {
  for (const o of open.splice(0)) o.close();
});

describe('a kept-alive socket the API server closed as a request went out on it', () => {
  it('sends the request again on a new connection, a write too (the server never read it)', async () => {
    const s = await server(false);
    const t = transportOf(s.port);
    open.push(s, { close: () => t.close() });
    // two kept-alive sockets, both closed by the server by the time the write goes out
    await Promise.all([t.request('/api/v1/namespaces'), t.request('/api/v1/namespaces')]);
    const created = await t.request('/api/v1/namespaces', {
      method: 'POST',
      body: '{"metadata":{"name":"shop"}}',
    });
    expect(created.status).toBe(200);
    expect(s.seen).toEqual([
      'answered GET /api/v1/namespaces HTTP/1.1',
      'answered GET /api/v1/namespaces HTTP/1.1',
      'reset POST /api/v1/namespaces HTTP/1.1',
      'reset POST /api/v1/namespaces HTTP/1.1',
      'answered POST /api/v1/namespaces HTTP/1.1',
    ]);
  });

  it('does not send a write again that was reset on a new connection: it may have been read', async () => {
    const s = await server(true);
    const t = transportOf(s.port);
    open.push(s, { close: () => t.close() });
    await expect(
      t.request('/api/v1/namespaces', { method: 'POST', body: '{"metadata":{"name":"shop"}}' }),
    ).rejects.toThrow(/cannot reach the API server .*ECONNRESET/);
    expect(s.seen).toEqual(['reset POST /api/v1/namespaces HTTP/1.1']);
  });
});
