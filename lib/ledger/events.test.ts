import { describe, it, expect } from 'vitest';
import { createHistoryReader, readHistory } from './events';
import { createJsonSplitter } from '../json-stream';
import { podJson, T0 } from '../../tests/data/ledger/pods';

const a = podJson({ name: 'a', ip: '10.8.0.5', start: T0 });
const b = podJson({ name: 'b', ip: '10.8.0.6', start: T0 });

describe('history files', () => {
  it('reads one watch event per line (kubectl --output-watch-events)', () => {
    const text = [
      JSON.stringify({ type: 'ADDED', object: a }),
      JSON.stringify({ type: 'MODIFIED', object: b }),
      JSON.stringify({ type: 'DELETED', object: a }),
    ].join('\n');
    const r = readHistory(text);
    expect(r.events.map((e) => `${e.type}:${e.pod.name}:${e.pod.ips.join()}`)).toEqual([
      'ADDED:a:10.8.0.5',
      'MODIFIED:b:10.8.0.6',
      'DELETED:a:10.8.0.5',
    ]);
    expect(r.problems).toEqual([]);
    expect(r.counts).toEqual({ values: 3, events: 3, bookmarks: 0, timed: 0 });
  });

  it('reads pretty multi-line JSON values written one after another, split across chunks', () => {
    const text = `${JSON.stringify({ type: 'ADDED', object: a }, null, 4)}\n${JSON.stringify({ type: 'ADDED', object: { ...b, metadata: { ...(b.metadata as object), annotations: { note: 'braces { in "strings" }' } } } }, null, 4)}\n`;
    const reader = createHistoryReader();
    const names: string[] = [];
    for (let i = 0; i < text.length; i += 7)
      names.push(...reader.push(text.slice(i, i + 7)).map((e) => e.pod.name));
    reader.end();
    expect(names).toEqual(['a', 'b']);
    expect(reader.problems).toEqual([]);
  });

  it('accepts a PodList and a plain Pod', () => {
    const r = readHistory(
      `${JSON.stringify({ kind: 'PodList', items: [a, b] })}\n${JSON.stringify(a)}`,
    );
    expect(r.events.map((e) => `${e.type}:${e.pod.name}`)).toEqual([
      'LISTED:a',
      'LISTED:b',
      'LISTED:a',
    ]);
  });

  it('uses an event time when the capture has one', () => {
    const r = readHistory(
      JSON.stringify({ type: 'ADDED', object: a, time: '2024-06-01T10:00:05Z' }),
    );
    expect(r.events[0]?.time).toBe(Date.parse('2024-06-01T10:00:05Z'));
    expect(r.counts.timed).toBe(1);
  });

  it('reports garbage, watch errors, non-pods and a truncated end with line numbers, and keeps going', () => {
    const text = [
      'error: the server doesn\'t have a resource type "podz"',
      JSON.stringify({
        type: 'ERROR',
        object: { kind: 'Status', message: 'too old resource version: 1 (5)', code: 410 },
      }),
      JSON.stringify({
        type: 'BOOKMARK',
        object: { kind: 'Pod', metadata: { resourceVersion: '9' } },
      }),
      JSON.stringify({ type: 'ADDED', object: { kind: 'Pod', metadata: {} } }),
      JSON.stringify({ type: 'ADDED', object: a }),
      '{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"cut"',
    ].join('\n');
    const r = readHistory(text);
    expect(r.events.map((e) => e.pod.name)).toEqual(['a']);
    expect(r.counts.bookmarks).toBe(1);
    expect(r.problems.map((p) => [p.line, p.reason])).toEqual([
      [1, 'not-json'],
      [2, 'watch-error'],
      [4, 'not-a-pod'],
      [6, 'truncated'],
    ]);
    expect(r.problems[1]?.message).toContain('too old resource version');
  });

  it('splits values with string escapes correctly', () => {
    const s = createJsonSplitter();
    const out = s.push('{"a":"x\\"}{"}{"b":[1,{"c":"]"}]}\n  [1,2]');
    expect(out.values.map((v) => JSON.parse(v.text))).toEqual([
      { a: 'x"}{' },
      { b: [1, { c: ']' }] },
      [1, 2],
    ]);
    expect(out.values.map((v) => v.line)).toEqual([1, 1, 2]);
  });
});
