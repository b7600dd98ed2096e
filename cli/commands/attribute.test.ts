import { describe, it, expect, afterAll } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { run } from './attribute';
import { fakeIO } from '../../test-support/cli-io';
import type { Pod } from '../../lib/kube/types';
import { openHistoryStore } from '../../server/store/history-store';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-attribute-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const io = () => fakeIO(dir);

const IP = '10.8.0.5';
function pod(name: string, ip: string | null, extra: Record<string, unknown> = {}) {
  return {
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'shop',
      uid: `uid-${name}`,
      creationTimestamp: '2024-06-01T09:59:58Z',
      ownerReferences: [{ kind: 'ReplicaSet', name: 'payments-5d9f', controller: true }],
      ...extra,
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'app' }] },
    status: {
      phase: 'Running',
      startTime: '2024-06-01T10:00:00Z',
      ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
    },
  };
}
const deleting = { deletionTimestamp: '2024-06-01T10:10:30Z', deletionGracePeriodSeconds: 30 };
/** A kubectl capture: no event times; pretty and one-line JSON mixed. */
const HISTORY = [
  JSON.stringify({ type: 'ADDED', object: pod('payments-a', IP) }, null, 2),
  JSON.stringify({ type: 'MODIFIED', object: pod('payments-a', IP, deleting) }),
  JSON.stringify({ type: 'DELETED', object: pod('payments-a', IP, deleting) }),
].join('\n');

const LOG_LINE = (time: string, code: number, flags: string) =>
  `[${time}] "POST /pay HTTP/1.1" ${code} ${flags} via_upstream - "-" 0 95 3 - "-" "curl" "rid" "payments:8080" "${IP}:8080" outbound|8080||payments.shop.svc.cluster.local 10.8.0.99:40000 10.96.0.10:8080 10.8.0.99:39999 - default`;
const LOG = [
  LOG_LINE('2024-06-01T10:05:00.000Z', 200, '-'),
  LOG_LINE('2024-06-01T10:10:10.000Z', 503, 'UC'),
  'garbage that is no access log',
  LOG_LINE('2024-06-01T10:12:00.000Z', 503, 'UF,URX'),
  '',
].join('\n');

fs.writeFileSync(path.join(dir, 'history.json'), HISTORY);
fs.writeFileSync(path.join(dir, 'access.log'), LOG);

describe('meshdx attribute', () => {
  it('prints exactly the documented JSON', async () => {
    const t = io();
    expect(await run(['access.log', '--history', 'history.json', '--json'], t)).toBe(0);
    expect(JSON.parse(t.out)).toEqual({
      requests: 3,
      errors: 1,
      unreadable: [{ line: 3, reason: 'unknown-format' }],
      untimed: { count: 0, lines: [] },
      attributions: [
        {
          line: 2,
          time: '2024-06-01T10:10:10.000Z',
          code: 503,
          flags: ['UC'],
          upstream: `${IP}:8080`,
          pod: { namespace: 'shop', name: 'payments-a', uid: 'uid-payments-a' },
          state: 'terminating',
          afterTerminationMs: 10_000,
        },
        {
          line: 4,
          time: '2024-06-01T10:12:00.000Z',
          code: 503,
          flags: ['UF', 'URX'],
          upstream: `${IP}:8080`,
          pod: { namespace: 'shop', name: 'payments-a', uid: 'uid-payments-a' },
          state: 'terminated',
          afterTerminationMs: 120_000,
        },
      ],
    });
    expect(t.err).toContain('no event times');
  });

  it('reads the log from a pipe as from a file', async () => {
    const want = io();
    expect(await run(['access.log', '--history', 'history.json', '--json'], want)).toBe(0);
    const fifo = path.join(dir, 'access.fifo');
    execFileSync('mkfifo', [fifo]);
    spawn('sh', ['-c', 'cat "$0" > "$1"', path.join(dir, 'access.log'), fifo]);
    const t = io();
    expect(await run([fifo, '--history', 'history.json', '--json'], t)).toBe(0);
    expect(t.out).toBe(want.out);
  });

  it('--all attributes successful requests too', async () => {
    const t = io();
    expect(await run(['access.log', '--history=history.json', '--json', '--all'], t)).toBe(0);
    const out = JSON.parse(t.out);
    expect(out.attributions.map((a: { line: number; state: string }) => [a.line, a.state])).toEqual(
      [
        [1, 'live'],
        [2, 'terminating'],
        [4, 'terminated'],
      ],
    );
  });

  it('prints a table grouped by upstream pod', async () => {
    const t = io();
    expect(await run(['access.log', '--history', 'history.json'], t)).toBe(0);
    expect(t.out).toContain('requests 3  unreadable lines 1');
    const row = t.out.split('\n').find((l) => l.startsWith('shop/payments-a')) ?? '';
    expect(row.split(/\s{2,}/)).toEqual([
      'shop/payments-a',
      'ReplicaSet/payments-5d9f',
      'terminated',
      '2',
      'UC=1,UF=1,URX=1',
      '503=2',
      '2.0min',
      IP,
    ]);
  });

  it('reads a meshdx store file: intervals with watched times, the IP reused later', async () => {
    const file = path.join(dir, 'meshdx.sqlite');
    const store = openHistoryStore(file, { flushIntervalMs: 0 });
    const seen = (type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: unknown, at: string) =>
      store.recordPodEvent({
        type,
        object: obj as Pod,
        observedAt: new Date(at),
        via: type === 'ADDED' ? 'list' : 'watch',
      });
    seen('ADDED', pod('payments-a', IP), '2024-06-01T10:00:05Z');
    seen('MODIFIED', pod('payments-a', IP, deleting), '2024-06-01T10:10:00Z');
    seen('DELETED', pod('payments-a', IP, deleting), '2024-06-01T10:10:31Z');
    const b = pod('payments-b', IP);
    b.status.startTime = '2024-06-01T10:11:28Z';
    seen('ADDED', b, '2024-06-01T10:11:30Z');
    store.close();
    expect(fs.readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');

    const t = io();
    expect(await run(['access.log', '--history', 'meshdx.sqlite', '--json'], t)).toBe(0);
    const out = JSON.parse(t.out);
    expect(out.requests).toBe(3);
    expect(
      out.attributions.map(
        (a: {
          line: number;
          pod: { name: string };
          state: string;
          afterTerminationMs: number | null;
        }) => [a.line, a.pod?.name, a.state, a.afterTerminationMs],
      ),
    ).toEqual([
      [2, 'payments-a', 'terminating', 10_000],
      [4, 'payments-b', 'live', null],
    ]);
    expect(t.err).toBe('');
  });

  it('a file that only looks like SQLite is refused with a clear message', async () => {
    fs.writeFileSync(
      path.join(dir, 'store.db'),
      Buffer.concat([Buffer.from('SQLite format 3\u0000'), Buffer.alloc(100)]),
    );
    const t = io();
    expect(await run(['access.log', '--history', 'store.db'], t)).toBe(2);
    expect(t.err).toContain('cannot read store file');
    expect(t.err).toContain(path.join(dir, 'store.db'));
  });

  it('exits 2 on missing files and bad usage, naming the file', async () => {
    const t = io();
    expect(await run(['access.log', '--history', 'missing.json'], t)).toBe(2);
    expect(t.err).toContain(path.join(dir, 'missing.json'));
    const u = io();
    expect(await run(['missing.log', '--history', 'history.json'], u)).toBe(2);
    expect(u.err).toContain('missing.log');
    expect(await run(['access.log'], io())).toBe(2);
    expect(await run(['access.log', '--history', 'history.json', '--gap-minutes', 'x'], io())).toBe(
      2,
    );
  });

  it('lists the failing requests that had no time instead of dropping them', async () => {
    const untimed = LOG_LINE('2024-06-01T10:10:10.000Z', 503, 'UC').replace(/^\[[^\]]*\] /, '');
    fs.writeFileSync(path.join(dir, 'untimed.log'), `${LOG}${untimed}\n${untimed}\n`);
    const t = io();
    expect(await run(['untimed.log', '--history', 'history.json', '--json'], t)).toBe(0);
    const out = JSON.parse(t.out) as {
      untimed: unknown;
      attributions: { line: number; state: string }[];
    };
    expect(out.untimed).toEqual({ count: 2, lines: [5, 6] });
    expect(out.attributions.filter((a) => a.state === 'unknown').map((a) => a.line)).toEqual([
      5, 6,
    ]);
    expect(t.err).toContain('2 requests to attribute had no time (lines 5, 6)');
    const table = io();
    expect(await run(['untimed.log', '--history', 'history.json'], table)).toBe(0);
    expect(table.err).toContain('had no time (lines 5, 6)');
  });

  it('names the pods whose IPs the capture cannot place in time, instead of hiding them', async () => {
    // a pod object as a template gives it: an IP, and no startTime, condition or creation time
    const timeless = pod('payments-t', '10.8.0.7');
    delete (timeless.metadata as { creationTimestamp?: string }).creationTimestamp;
    delete (timeless.status as { startTime?: string }).startTime;
    fs.writeFileSync(
      path.join(dir, 'timeless.json'),
      `${HISTORY}\n${JSON.stringify({ type: 'ADDED', object: timeless })}\n`,
    );
    const t = io();
    expect(await run(['access.log', '--history', 'timeless.json', '--json'], t)).toBe(0);
    expect(t.err).toContain(
      'timeless.json: 1 pod IP(s) left out: nothing tells when their pod held them',
    );
    expect(t.err).toContain('"no pod known": shop/payments-t (10.8.0.7)');
    // a timed pod is not named, and its attribution stands
    expect(t.err).not.toContain('payments-a');
    const out = JSON.parse(t.out) as { attributions: { pod: { name: string } | null }[] };
    expect(out.attributions.map((a) => a.pod?.name)).toEqual(['payments-a', 'payments-a']);
  });

  it('ztunnel: a failed connection to the IP of a pod already gone is attributed to it', async () => {
    const z = (time: string, extra: string) =>
      `${time}\terror\taccess\tconnection complete\tsrc.addr=10.8.0.99:4000 src.workload="client-1" dst.addr=${IP}:15008 dst.hbone_addr=${IP}:8080 dst.service="payments.shop.svc.cluster.local" direction="outbound" bytes_sent=0 bytes_recv=0 duration="3ms" ${extra}`;
    fs.writeFileSync(
      path.join(dir, 'ztunnel.log'),
      [
        '2024-06-01T10:11:00.000000Z\tinfo\txds::client:xds{id=1}\treceived response',
        z('2024-06-01T10:12:00.003000Z', 'error="io error: Connection refused (os error 111)"'),
        '',
      ].join('\n'),
    );
    const t = io();
    expect(await run(['ztunnel.log', '--history', 'history.json', '--json'], t)).toBe(0);
    const out = JSON.parse(t.out) as {
      attributions: {
        line: number;
        flags: string[];
        pod: { name: string };
        state: string;
        time: string;
      }[];
    };
    expect(out.attributions).toHaveLength(1);
    expect(out.attributions[0]).toMatchObject({
      line: 2,
      flags: ['UF'],
      pod: { name: 'payments-a' },
      state: 'terminated',
      time: '2024-06-01T10:12:00.000Z',
    });
  });

  it('exit 2 naming the file: empty log, binary log, config dump as log, history without pods', async () => {
    fs.writeFileSync(path.join(dir, 'empty.log'), '');
    fs.writeFileSync(path.join(dir, 'bin.log'), Buffer.from([0, 1, 2, 10, 0xff, 0xfe, 10]));
    fs.writeFileSync(path.join(dir, 'dump.log'), JSON.stringify({ configs: [] }, null, 2));
    fs.writeFileSync(
      path.join(dir, 'nopods.json'),
      JSON.stringify({ kind: 'ServiceList', items: [] }),
    );
    const cases: [string[], RegExp][] = [
      [['empty.log', '--history', 'history.json'], /empty\.log: is empty/],
      [
        ['bin.log', '--history', 'history.json'],
        /bin\.log: no access-log record in 2 lines: 2 unreadable \(binary\)/,
      ],
      [['dump.log', '--history', 'history.json'], /dump\.log: no access-log record in 3 lines/],
      [['access.log', '--history', 'nopods.json'], /nopods\.json: no pod events in this history/],
    ];
    for (const [argv, why] of cases) {
      const t = io();
      expect(await run(argv, t)).toBe(2);
      expect(t.err).toMatch(why);
      expect(t.err).not.toMatch(/\n\s+at /); // never a stack trace
    }
  });

  it('bounded: an over-long log line is listed as too-long, a too-deep history value is skipped', async () => {
    fs.writeFileSync(path.join(dir, 'long.log'), `${'y'.repeat(3000)}\n${LOG}`);
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    fs.writeFileSync(path.join(dir, 'deep-history.json'), `${deep}\n${HISTORY}\n`);
    const t = fakeIO(dir);
    t.limits = { maxLineBytes: 1000, maxDepth: 64 };
    expect(await run(['long.log', '--history', 'deep-history.json', '--json'], t)).toBe(0);
    const out = JSON.parse(t.out) as { unreadable: unknown[]; attributions: unknown[] };
    expect(out.unreadable).toEqual([
      { line: 1, reason: 'too-long' },
      { line: 4, reason: 'unknown-format' },
    ]);
    expect(out.attributions).toHaveLength(2);
    expect(t.err).toMatch(
      /deep-history\.json:1: too-deep: JSON value nested deeper than 64 levels/,
    );
  });
});
