import { describe, expect, it } from 'vitest';
import { readFixture } from '../../../test-support/fixtures';
import { applyFaults, createFaults, parseFaultArgs, parseFaultPatch } from './faults';
import { createSimLogs } from './logs';

const FILE = 'proxy_logs/istio-ingressgateway-1.6.3_istio-proxy_container.log';

describe('createSimLogs', () => {
  const raw = readFixture(FILE).replace(/\n$/, '').split('\n');

  it('keeps a real proxy log in order and answers tailLines and sinceTime', () => {
    const logs = createSimLogs();
    raw.forEach((line, i) =>
      logs.append('ns', 'gw', 'istio-proxy', new Date(Date.UTC(2020, 0, 1, 0, 0, i)), line),
    );
    expect(logs.read('ns', 'gw', 'istio-proxy').map((l) => l.line)).toEqual(raw);
    expect(logs.read('ns', 'gw', 'istio-proxy', { tailLines: 2 }).map((l) => l.line)).toEqual(
      raw.slice(-2),
    );
    expect(logs.read('ns', 'gw', 'istio-proxy', { tailLines: 0 })).toEqual([]);
    const since = logs.read('ns', 'gw', 'istio-proxy', {
      sinceTime: new Date(Date.UTC(2020, 0, 1, 0, 0, 100)),
    });
    expect(since.length).toBe(raw.length - 100);
    expect(logs.read('ns', 'gw', 'other')).toEqual([]);
  });

  it('bounds memory per container and counts what it dropped', () => {
    const logs = createSimLogs({ maxLinesPerContainer: 10 });
    raw.forEach((line) => logs.append('ns', 'gw', 'c', new Date(0), line));
    expect(logs.read('ns', 'gw', 'c').map((l) => l.line)).toEqual(raw.slice(-10));
    expect(logs.droppedLines()).toBe(raw.length - 10);
  });

  it('splits multi-line appends and tells subscribers', () => {
    const logs = createSimLogs();
    const got: string[] = [];
    const stop = logs.subscribe('a', 'p', 'c', (l) => got.push(l.line));
    logs.append('a', 'p', 'c', new Date(0), 'one\ntwo\n');
    stop();
    logs.append('a', 'p', 'c', new Date(0), 'three');
    expect(got).toEqual(['one', 'two']);
    expect(logs.read('a', 'p', 'c').length).toBe(3);
  });
});

describe('faults', () => {
  it('validates patches and applies them in place', () => {
    const f = createFaults({ latencyMs: 5 });
    expect(parseFaultPatch({ errorRate: 3, bogus: 1 })).toMatchObject({ ok: false });
    const bad = parseFaultPatch({ unreachablePods: ['no-slash'] });
    expect(bad.ok === false && bad.errors[0]).toMatch(/^unreachablePods\.0:/);
    const ok = parseFaultPatch({ slowPods: { 'a/b': 100 }, errorRate: 0.1 });
    if (!ok.ok) throw new Error(ok.errors.join());
    applyFaults(f, ok.patch);
    expect(f.latencyMs).toBe(5);
    expect(f.errorRate).toBe(0.1);
    expect([...f.slowPods]).toEqual([['a/b', 100]]);
  });

  it('parses --fault command-line items', () => {
    expect(
      parseFaultArgs(['latency=200', 'unreachable=shop/a', 'slow=shop/b:3000', 'errorRate=0.25']),
    ).toEqual({
      latencyMs: 200,
      errorRate: 0.25,
      unreachablePods: ['shop/a'],
      slowPods: { 'shop/b': 3000 },
    });
    expect(() => parseFaultArgs(['latency=-1'])).toThrow(/number >= 0/);
    expect(() => parseFaultArgs(['warp=9'])).toThrow(/unknown fault/);
  });
});
