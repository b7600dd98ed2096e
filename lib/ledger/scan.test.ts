import { describe, it, expect } from 'vitest';
import { createAttributionScan, type AttributionScanOptions } from './scan';
import { at, history, uglyLog } from '../../tests/data/ledger/scan-log';
import { parseAccessLog } from '../accesslog/parser';
import { isFailure } from '../accesslog/failure';

function scanAll(bytes: Uint8Array, options: AttributionScanOptions, chunk: number) {
  const scan = createAttributionScan(history, options);
  for (let i = 0; i < bytes.length; i += chunk) scan.push(bytes.subarray(i, i + chunk));
  return scan.end();
}

function comparable(r: ReturnType<typeof scanAll>) {
  const { prescan: _p, skippedByFilter: _s, ...rest } = r;
  return rest;
}

describe('attribution scan: the pre-scan fast path agrees with the full parser', () => {
  const log = uglyLog();
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(log);
  const lineCount = text.split('\n').length; // no trailing '\n': every piece is a line

  for (const chunk of [log.length, 4096, 7, 1]) {
    it(`same attributions, errors and line numbers (chunks of ${chunk} bytes)`, () => {
      const fast = scanAll(log, {}, chunk);
      const full = scanAll(log, { prescan: false }, chunk);
      expect(fast.prescan).toBe(true);
      expect(full.prescan).toBe(false);
      expect(fast.skippedByFilter).toBeGreaterThan(20);
      expect(full.skippedByFilter).toBe(0);
      expect(comparable(fast)).toEqual(comparable(full));
      expect(fast.lines).toBe(lineCount);
    });
  }

  it('gives the same when every chunk is read into one reused buffer, tabs in later chunks', () => {
    // lines of many lengths, some with a tab in the path: a chunk's lines then start before
    // and after where the last chunk's last line started
    const lines = Array.from({ length: 120 }, (_, k) => {
      const pad = 'p'.repeat((k * 37) % 300);
      // no tab in the first chunks, so that the pre-scan knows of none there
      return k > 60 && k % 3 === 1
        ? `[${at(k % 50)}] "GET /${pad}\t${k} HTTP/1.1" 200 - x`
        : `[${at(k % 50)}] "GET /${pad}${k} HTTP/1.1" ${k % 5 ? 200 : 503} - x`;
    });
    const log = Buffer.from(lines.join('\n'));
    const whole = createAttributionScan(history, {});
    whole.push(log);
    const want = whole.end();
    // a tab in the path: no Istio format reads the line
    expect(want.errors).toBe(lines.filter((l) => l.includes('\t')).length);
    expect(want.attributions.length).toBe(lines.filter((l) => l.includes('" 503 ')).length);
    for (const size of [1000, 777, 1500, 333]) {
      const reused = createAttributionScan(history, {});
      const buf = Buffer.alloc(size);
      for (let i = 0; i < log.length; i += size) {
        const n = log.copy(buf, 0, i, i + size);
        // the buffer itself when full, as the log readers do
        reused.push(n === size ? buf : buf.subarray(0, n));
      }
      expect(reused.end()).toEqual(want);
    }
    // chunks that end at line ends (no line carried over), each read into the same full
    // buffer: groups of lines padded with empty lines to the buffer's size
    const groups: Buffer[] = [];
    for (let k = 0; k < lines.length; k += 7) {
      const text = `${lines.slice(k, k + 7).join('\n')}\n`;
      groups.push(Buffer.from(text.padEnd(4096, '\n')));
    }
    const padded = createAttributionScan(history, {});
    padded.push(Buffer.concat(groups));
    const reused = createAttributionScan(history, {});
    const buf = Buffer.alloc(4096);
    for (const g of groups) {
      g.copy(buf);
      reused.push(buf);
    }
    expect(reused.end()).toEqual(padded.end());
  });

  it('matches the line-by-line parser on the decoded text, line numbers included', () => {
    const fast = scanAll(log, {}, 1000);
    const reference = parseAccessLog(text);
    const records = reference.flatMap((r) => (r.kind === 'record' ? [r.record] : []));
    const errors = reference.flatMap((r) => (r.kind === 'error' ? [r.error] : []));
    expect(fast.requests).toBe(records.length);
    expect(fast.errors).toBe(errors.length);
    expect(fast.unreadable).toEqual(errors.map((e) => ({ line: e.line, reason: e.reason })));
    const failing = records.filter(isFailure);
    expect(fast.attributions.map((a) => [a.line, a.code, a.flags])).toEqual(
      failing.map((r) => [r.line, r.responseCode, r.responseFlags]),
    );
    // each attribution's line number points at its line in the file
    const lines = text.split('\n');
    for (const a of fast.attributions) expect(lines[a.line - 1]).toContain(String(a.code));
  });

  it('finds the failures it must, with the states of the history', () => {
    const fast = scanAll(log, {}, 4096);
    const lines = text.split('\n');
    const byText = (needle: string) =>
      fast.attributions.find((a) => (lines[a.line - 1] ?? '').includes(needle));
    expect(byText(`${at(2)}] "POST /pay HTTP/1.1" 503 UC`)?.state).toBe('live');
    expect(byText(`${at(11)}] "POST /pay HTTP/1.1" 503 UC`)?.state).toBe('terminated');
    expect(byText(`${at(30)}] "POST /pay HTTP/1.1" 503 UC`)?.state).toBe('unknown');
    expect(byText('"POST /pay HTTP/1.1" 0 DC')?.flags).toEqual(['DC']);
    expect(byText('2024-06-01T10:06:31.000000000Z')?.flags).toEqual(['UF']);
    expect(fast.attributions.some((a) => a.code === 200 && a.flags.length === 0)).toBe(false);
    expect(fast.skipped['proxy-log']).toBeGreaterThan(2);
    expect(fast.errorsByReason.binary).toBeGreaterThanOrEqual(1);
  });

  it('--all and custom formats that do not start like Istio turn the pre-scan off', () => {
    expect(scanAll(log, { all: true }, 4096).prescan).toBe(false);
    expect(scanAll(log, { format: '%START_TIME% %RESPONSE_CODE%' }, 4096).prescan).toBe(false);
    const custom =
      '[%START_TIME%] "%REQ(:METHOD)% %REQ(X-ENVOY-ORIGINAL-PATH?:PATH)% %PROTOCOL%" %RESPONSE_CODE% %RESPONSE_FLAGS% %BYTES_RECEIVED% %BYTES_SENT% %DURATION% %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% %REQ(X-FORWARDED-FOR)% "%REQ(X-REQUEST-ID)%" "%REQ(:AUTHORITY)%" "%UPSTREAM_HOST%"';
    const fast = scanAll(log, { format: custom }, 4096);
    const full = scanAll(log, { format: custom, prescan: false }, 4096);
    expect(fast.prescan).toBe(true);
    expect(comparable(fast)).toEqual(comparable(full));
    const all = scanAll(log, { all: true }, 4096);
    expect(all.attributed).toBe(all.requests);
  });

  it('onAttribution receives every attribution in line order and nothing is collected', () => {
    const seen: number[] = [];
    const r = scanAll(log, { onAttribution: (a) => seen.push(a.line) }, 4096);
    expect(r.attributions).toEqual([]);
    expect(seen).toEqual(scanAll(log, {}, 4096).attributions.map((a) => a.line));
    expect(r.attributed).toBe(seen.length);
  });
});
