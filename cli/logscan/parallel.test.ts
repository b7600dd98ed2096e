import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAttributionScan } from '../../lib/ledger/scan';
import { attributeRecord, type Attribution } from '../../lib/ledger/attribution';
import { history, uglyLog } from '../../tests/data/ledger/scan-log';
import { startLogScan, type LogScanOptions } from './parallel';
import { segmentBounds } from './segment';
import { JsonItemFinisher, attributionJsonItem } from '../../lib/ledger/report-json';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshdx-logscan-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Uint8Array): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** The single pass over the whole log, as the reference. */
function onePass(bytes: Uint8Array, options: LogScanOptions = {}) {
  const scan = createAttributionScan(history, options);
  scan.push(bytes);
  return scan.end();
}

async function split(file: string, options: LogScanOptions) {
  const attributions: Attribution[] = [];
  const r = await startLogScan(file, options).finish((rec) =>
    attributions.push(attributeRecord(rec, history)),
  );
  return { ...r, attributions };
}

/** The fields both results have, attributions by their JSON fields. */
function comparable(r: Awaited<ReturnType<typeof split>> | ReturnType<typeof onePass>) {
  return {
    lines: r.lines,
    requests: r.requests,
    skipped: r.skipped,
    errors: r.errors,
    errorsByReason: r.errorsByReason,
    unreadable: r.unreadable,
    untimed: r.untimed,
    attributions: r.attributions.map((a) => [a.line, a.time, a.code, a.flags, a.pod, a.state]),
  };
}

describe('parallel log scan of prefixed, untimed, ztunnel and over-long lines', () => {
  const base = new TextDecoder().decode(uglyLog()).split('\n');
  const mixed: string[] = [];
  base.forEach((line, i) => {
    if (i % 7 === 1)
      mixed.push(line.replace(/^\[[^\]]*\] /, '')); // no start time
    else if (i % 7 === 2)
      mixed.push(`pod-${i} istio-proxy ${line}`); // stern
    else if (i % 7 === 3)
      mixed.push('z'.repeat(700)); // over the line limit below
    else if (i % 7 === 4)
      mixed.push(
        `2024-06-01T10:12:00.003000Z\terror\taccess\tconnection complete\tsrc.addr=10.8.0.99:4 dst.addr=10.8.0.5:15008 dst.hbone_addr=10.8.0.5:8080 duration="3ms" error="connection refused"`,
      );
    else mixed.push(line);
  });
  const bytes = new TextEncoder().encode(mixed.join('\n'));
  const file = write('mixed.log', bytes);

  it('gives the single pass’s result, untimed lines and too-long lines numbered alike', async () => {
    const options = { maxLineBytes: 512 };
    const want = comparable(onePass(bytes, options));
    expect(want.untimed.count).toBeGreaterThan(0);
    expect(want.errorsByReason['too-long']).toBeGreaterThan(0);
    const got = comparable(await split(file, { ...options, segmentBytes: 200, workers: 1 }));
    expect(got).toEqual(want);
  });
});

describe('parallel log scan', () => {
  const log = uglyLog();
  const file = write('ugly.log', log);
  const want = comparable(onePass(log));

  it('the reference pass finds failures, proxy logs and unreadable lines', () => {
    expect(want.attributions.length).toBeGreaterThan(10);
    expect(want.skipped['proxy-log-continuation']).toBeGreaterThan(0);
    expect(want.errors).toBeGreaterThan(5);
  });

  // segments so small that cuts fall inside proxy-log continuations, CRLF lines, JSON lines,
  // binary garbage and the last line without '\n'
  for (const segmentBytes of [1, 7, 61, 300, 4096]) {
    it(`gives the single pass's result with segments of ${segmentBytes} bytes and a worker`, async () => {
      const got = await split(file, { segmentBytes, workers: 1 });
      expect(got.threads).toBe(2);
      expect(got.warnings).toEqual([]);
      expect(comparable(got)).toEqual(want);
    });
  }

  it('gives the same on one thread, and with the pre-scan off', async () => {
    expect(comparable(await split(file, { segmentBytes: 97, workers: 0 }))).toEqual(want);
    const full = comparable(onePass(log, { prescan: false }));
    expect(comparable(await split(file, { segmentBytes: 97, workers: 1, prescan: false }))).toEqual(
      full,
    );
  });

  it('hands over --json parts that make the items of the single pass', async () => {
    const finisher = new JsonItemFinisher(history, 5 * 60_000);
    const items: string[] = [];
    await startLogScan(file, { segmentBytes: 61, workers: 1, output: 'json' }).finish({
      json: (line, time, ip, middle) => items.push(finisher.item(line, time, ip, middle)),
    });
    expect(items).toEqual(onePass(log).attributions.map(attributionJsonItem));
  });

  it('keeps only the first unreadable lines listed, counting all', async () => {
    const got = await split(file, { segmentBytes: 50, workers: 1, maxUnreadableListed: 3 });
    expect(got.unreadable).toEqual(want.unreadable.slice(0, 3));
    expect(got.errors).toBe(want.errors);
  });

  it('cuts only at line starts and covers the file', () => {
    const fd = fs.openSync(file, 'r');
    try {
      for (const size of [1, 13, 500]) {
        const b = segmentBounds(fd, log.length, size);
        expect(b[0]).toBe(0);
        expect(b.at(-1)).toBe(log.length);
        for (const cut of b.slice(1, -1)) expect(log[cut - 1]).toBe(10);
        for (let k = 1; k < b.length; k++) expect(b[k]).toBeGreaterThan(b[k - 1] as number);
      }
    } finally {
      fs.closeSync(fd);
    }
  });

  it('reads an empty log and a log of one line without a newline', async () => {
    const empty = await split(write('empty.log', new Uint8Array()), {
      segmentBytes: 1,
      workers: 1,
    });
    expect(empty).toMatchObject({ lines: 0, requests: 0, errors: 0, attributions: [] });
    const one = Buffer.from(
      '[2024-06-01T10:11:00.000Z] "GET /x HTTP/1.1" 503 UC 0 95 44456 - - "rid" "yourdomain.com" "10.8.0.5:80"',
    );
    const got = await split(write('one.log', one), { segmentBytes: 5, workers: 1 });
    expect(comparable(got)).toEqual(comparable(onePass(one)));
    expect(got.attributions).toHaveLength(1);
  });

  it('tells of a worker that could not start, its segments scanned here', async () => {
    const missing = new URL('./no-such-worker-entry.mjs', import.meta.url);
    const attributions: Attribution[] = [];
    const got = await startLogScan(file, {
      segmentBytes: 61,
      workers: 1,
      workerEntry: missing,
    }).finish((rec) => attributions.push(attributeRecord(rec, history)));
    expect(comparable({ ...got, attributions })).toEqual(want);
    expect(got.warnings.join('\n')).toMatch(/scan worker failed/);
  });

  it('reads a pipe in one pass on this thread, records and --json parts alike', async () => {
    const fifo = path.join(dir, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    // a writer on the other end, as `kubectl logs ... | meshdx attribute /dev/stdin` has one
    const feed = () => spawn('sh', ['-c', 'cat "$0" > "$1"', file, fifo]);
    feed();
    const attributions: Attribution[] = [];
    const got = await startLogScan(fifo, { workers: 1 }).finish((rec) =>
      attributions.push(attributeRecord(rec, history)),
    );
    expect(got.threads).toBe(1);
    expect(comparable({ ...got, attributions })).toEqual(want);
    feed();
    const finisher = new JsonItemFinisher(history, 5 * 60_000);
    const items: string[] = [];
    await startLogScan(fifo, { output: 'json' }).finish({
      json: (line, time, ip, middle) => items.push(finisher.item(line, time, ip, middle)),
    });
    expect(items).toEqual(onePass(log).attributions.map(attributionJsonItem));
  });

  it('scans what a stopped worker had taken on this thread', async () => {
    const scan = startLogScan(file, { segmentBytes: 61, workers: 1 });
    // the worker is killed before it can post anything
    scan.abort();
    const attributions: Attribution[] = [];
    const got = await scan.finish((rec) => attributions.push(attributeRecord(rec, history)));
    expect(comparable({ ...got, attributions })).toEqual(want);
  });
});
