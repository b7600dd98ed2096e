import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { once } from 'node:events';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBECTL, kubectlSim, requireKubectl } from './kubectl-harness';
import { expectConfigDumpThrough, HELLO, localGet } from './world';
import { EVENT_WAIT_GUARD_MS } from '../../test-support/deadlines';

requireKubectl('the kubectl port-forward tests of the simulator');

interface Forwarding {
  child: ChildProcess;
  port: number;
  /** kubectl's stderr so far */
  stderr(): string;
  exited: Promise<number | null>;
}

describe('real kubectl port-forward against the simulator', () => {
  const h = kubectlSim('sim-port-forward');

  /** `kubectl port-forward pod/POD :15000` until it says which local port it listens on. */
  async function portForward(pod: string, env: Record<string, string> = {}): Promise<Forwarding> {
    const child = spawn(
      KUBECTL,
      [
        '--kubeconfig',
        path.join(h.dir, 'kubeconfig'),
        '-n',
        'shop',
        'port-forward',
        `pod/${pod}`,
        ':15000',
        '--address',
        '127.0.0.1',
        '-v=4',
      ],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await expect
      .poll(
        () => /Forwarding from 127\.0\.0\.1:(\d+) -> 15000/.test(out) || child.exitCode !== null,
        {
          timeout: EVENT_WAIT_GUARD_MS,
        },
      )
      .toBe(true);
    const m = /Forwarding from 127\.0\.0\.1:(\d+) -> 15000/.exec(out);
    if (!m) throw new Error(`kubectl port-forward did not start: ${err}`);
    return { child, port: Number(m[1]), stderr: () => err, exited };
  }

  for (const [transport, env, tunnel] of [
    ['SPDY tunnelled in a websocket (kubectl default)', {}, true],
    ['SPDY on the upgraded connection', { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }, false],
  ] as const) {
    it(`carries HTTP to Envoy admin and back, connection after connection: ${transport}`, async () => {
      const f = await portForward(HELLO, env);
      try {
        await expectConfigDumpThrough(f.port, HELLO);
        // each connection is a new pair of streams in the same session
        expect((await localGet(f.port, '/missing')).status).toBe(404);
        expect(JSON.parse((await localGet(f.port, '/stats')).body)).toMatchObject({
          path: '/stats',
        });
        // kubectl's -v=4 log says which way it went: no fallback from the websocket to SPDY
        expect(f.stderr()).not.toContain('fallback to secondary dialer');
        if (tunnel) expect(f.stderr()).toContain('negotiated protocol: portforward.k8s.io');
        else expect(f.stderr()).not.toContain('WebSocket');
        expect(f.child.exitCode).toBeNull();
      } finally {
        f.child.kill();
        await f.exited;
      }
    });
  }

  /** A SYN_STREAM (stream 1) whose header block is no zlib stream. */
  const badSynStream = Buffer.concat([
    Buffer.from([0x80, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x12]),
    Buffer.from([0, 0, 0, 1, 0, 0, 0, 0, 0, 0]),
    Buffer.from('garbage!'),
  ]);
  for (const [what, bytes] of [
    ['a frame of another SPDY version', Buffer.from([0x80, 0x02, 0, 1, 0, 0, 0, 4, 1, 2, 3, 4])],
    ['a header block that is no zlib stream', badSynStream],
  ] as const) {
    it(`ends a session on ${what}, and serves the next one`, async () => {
      const url = new URL(h.sim.url);
      const sock = net.connect(Number(url.port), url.hostname);
      await once(sock, 'connect');
      sock.write(
        'POST /api/v1/namespaces/shop/pods/hellopod/portforward HTTP/1.1\r\nHost: sim\r\n' +
          'Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\n' +
          'X-Stream-Protocol-Version: portforward.k8s.io\r\n\r\n',
      );
      let got = '';
      sock.on('data', (d: Buffer) => (got += d.toString('latin1')));
      await expect
        .poll(() => got.includes('\r\n\r\n'), { timeout: EVENT_WAIT_GUARD_MS })
        .toBe(true);
      expect(got).toMatch(/^HTTP\/1\.1 101 /);
      expect(got).toContain('X-Stream-Protocol-Version: portforward.k8s.io');
      sock.write(bytes);
      await once(sock, 'close');
      // the simulator goes on: kubectl still forwards
      const f = await portForward(HELLO);
      try {
        await expectConfigDumpThrough(f.port, HELLO);
      } finally {
        f.child.kill();
        await f.exited;
      }
    });
  }

  it('reports a port nothing answers on as the kubelet does, and kubectl stops', async () => {
    h.sim.faults.unreachablePods.add('shop/web-1');
    try {
      const f = await portForward('web-1');
      const sock = net.connect(f.port, '127.0.0.1', () =>
        sock.write('GET /ready HTTP/1.1\r\nHost: x\r\n\r\n'),
      );
      sock.on('error', () => undefined);
      const code = await f.exited;
      sock.destroy();
      expect(f.stderr()).toContain(
        'an error occurred forwarding ' +
          `${f.port} -> 15000: error forwarding port 15000 to pod shop/web-1`,
      );
      expect(f.stderr()).toContain('lost connection to pod');
      expect(code).toBe(1);
    } finally {
      h.sim.faults.unreachablePods.clear();
    }
  });
});
