import { afterEach, describe, expect, it } from 'vitest';
import { logLine } from '../../tests/data/incidents/logs';
import { makePod, MIN, observed, SEC, T0 } from '../../tests/data/store/pods';
import { deletionCapture, type ContainerLogReader } from './deletion-capture';
import { openHistoryStore, type HistoryStore } from './history-store';

const IP = '10.8.0.5';
let store: HistoryStore | null = null;
afterEach(() => {
  store?.close();
  store = null;
});

/** A client pod whose log holds two failing requests and one success. */
const LOG = [
  logLine(T0 + MIN, 503, 'UC', `${IP}:8080`),
  logLine(T0 + MIN + SEC, 200, '-', `${IP}:8080`),
  logLine(T0 + 2 * MIN, 503, 'UF', `${IP}:8080`),
].join('\n');

function setup(readLog: ContainerLogReader, opts: { maxQueued?: number } = {}) {
  const s = openHistoryStore(':memory:');
  store = s;
  const capture = deletionCapture({
    store: s,
    readLog,
    now: () => new Date(T0 + 3 * MIN),
    concurrency: 1,
    ...opts,
  });
  return { s, capture };
}

describe('deletionCapture', () => {
  it("reads a meshed pod's proxy log once when its deletion starts and records its failures", async () => {
    const asked: { pod: string; container: string; tailLines?: number; sinceTime?: string }[] = [];
    const { s, capture } = setup(async (_ns, pod, container, o) => {
      asked.push({ pod, container, tailLines: o.tailLines, sinceTime: o.sinceTime });
      return LOG;
    });
    const live = makePod({ name: 'web-1', ip: '10.9.0.1' });
    const deleting = makePod({ name: 'web-1', ip: '10.9.0.1', deletionAt: T0 + 3 * MIN });
    capture.onEvent(observed('MODIFIED', live, T0));
    capture.onEvent(observed('MODIFIED', deleting, T0 + 3 * MIN));
    capture.onEvent(observed('MODIFIED', deleting, T0 + 3 * MIN + SEC));
    await capture.idle();
    expect(asked).toEqual([
      { pod: 'web-1', container: 'istio-proxy', tailLines: 20_000, sinceTime: undefined },
    ]);
    expect(capture.status()).toMatchObject({ seen: 1, read: 1, failures: 2, failed: 0 });
    const rows = s.failures.inWindow({ fromMs: T0, toMs: T0 + 10 * MIN });
    expect(rows.map((r) => [r.source.proxy, r.source.read, r.fields.code])).toEqual([
      ['shop/web-1', 'deletion', 503],
      ['shop/web-1', 'deletion', 503],
    ]);
    expect(s.failures.watermark('shop/web-1')).toMatchObject({
      readTo: T0 + 3 * MIN,
      read: 'deletion',
    });
  });

  it('reads only past what an earlier read covered', async () => {
    const since: (string | undefined)[] = [];
    const { s, capture } = setup(async (_ns, _pod, _c, o) => {
      since.push(o.sinceTime);
      return LOG;
    });
    s.failures.markRead({
      proxy: 'shop/web-2',
      proxyUid: 'uid-web-2',
      readTo: T0 + 2 * MIN,
      readAt: T0 + 2 * MIN,
      read: 'view',
    });
    capture.onEvent(
      observed('MODIFIED', makePod({ name: 'web-2', ip: '10.9.0.2', deletionAt: T0 }), T0),
    );
    await capture.idle();
    expect(since).toEqual([new Date(T0 + 2 * MIN - 5 * SEC).toISOString()]);
  });

  it('counts a log that could not be read, and pods beyond the queue, never silently', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const { capture } = setup(
      async (_ns, pod) => {
        await gate;
        throw new Error(`pods "${pod}" not found`);
      },
      { maxQueued: 1 },
    );
    for (const n of ['a', 'b', 'c'])
      capture.onEvent(
        observed('MODIFIED', makePod({ name: n, ip: '10.9.0.3', deletionAt: T0 }), T0),
      );
    release();
    await capture.idle();
    // one read at a time, one waiting, one dropped
    expect(capture.status()).toMatchObject({ seen: 3, read: 0, failed: 2, dropped: 1 });
    expect(capture.status().lastError).toMatch(/not found/);
  });

  it('leaves pods without a proxy alone', async () => {
    const { capture } = setup(async () => LOG);
    const plain = makePod({ name: 'job-1', ip: '10.9.0.4', deletionAt: T0 });
    plain.spec.containers = [{ name: 'app' }];
    capture.onEvent(observed('MODIFIED', plain, T0));
    await capture.idle();
    expect(capture.status().seen).toBe(0);
  });
});
