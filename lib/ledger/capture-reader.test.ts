import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { createCaptureReader } from './capture-reader';
import { createHistoryReader } from './events';
import { mulberry32 } from '../random';
import type { JsonSplitterOptions } from '../json-stream';
import { podKeyOf } from '../refs/pod-ref';

const PODS = path.resolve(__dirname, '../../../shared/fixtures/pods');
/** The real pods of the fixtures, as the API server serves them (JSON). */
const realPods = fs
  .readdirSync(PODS)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(PODS, f), 'utf8')))
  .map((d) => (Array.isArray(d) ? null : (d.toJS() as Record<string, unknown> | null)))
  .filter((d): d is Record<string, unknown> => d?.kind === 'Pod');

const enc = new TextEncoder();

/** Both readers over the same text: the general one on its characters, the byte one on its bytes. */
function both(text: string, chunk = 1 << 20, limits: JsonSplitterOptions = {}) {
  const general = createHistoryReader(1000, limits);
  const generalEvents = [];
  for (let i = 0; i < text.length; i += chunk)
    generalEvents.push(...general.push(text.slice(i, i + chunk)));
  general.end();
  const bytes = enc.encode(text);
  const fast = createCaptureReader(1000, limits);
  const fastEvents = [];
  // the byte reader gets a reused buffer, as the command line gives it
  const buf = new Uint8Array(Math.min(chunk, Math.max(1, bytes.length)));
  for (let i = 0; i < bytes.length; i += chunk) {
    const part = bytes.subarray(i, i + chunk);
    buf.set(part);
    fastEvents.push(...fast.push(buf.subarray(0, part.length)));
    buf.fill(0x7b);
  }
  fast.end();
  return {
    general: { events: generalEvents, problems: general.problems, counts: general.counts },
    fast: { events: fastEvents, problems: fast.problems, counts: fast.counts },
    parsedInFull: fast.parsedInFull,
  };
}

/**
 * Problems are noted chunk by chunk (the splitter's first, then the values'), and chunks of
 * characters end elsewhere than chunks of bytes: where the text is not ASCII and cut in
 * chunks, the problems are compared in line order.
 */
function expectSame(text: string, chunk = 1 << 20, limits?: JsonSplitterOptions) {
  const r = both(text, chunk, limits);
  if (chunk >= text.length || /^[\u0000-\u007f]*$/.test(text)) expect(r.fast).toEqual(r.general);
  else {
    const inOrder = (p: { line: number; column?: number }[]) =>
      [...p].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
    expect(r.fast.events).toEqual(r.general.events);
    expect(r.fast.counts).toEqual(r.general.counts);
    expect(inOrder(r.fast.problems)).toEqual(inOrder(r.general.problems));
  }
  return r;
}

const watch = (type: string, object: unknown, extra: Record<string, unknown> = {}) => ({
  type,
  object,
  ...extra,
});
const deleting = (pod: Record<string, unknown>) => ({
  ...pod,
  metadata: {
    ...(pod.metadata as object),
    deletionTimestamp: '2024-06-01T10:10:30Z',
    deletionGracePeriodSeconds: 30,
  },
});

describe('the byte reader of watch captures gives what the general reader gives', () => {
  it('real pods: pretty watch events (kubectl -w -o json --output-watch-events), all read without JSON.parse', () => {
    expect(realPods.length).toBeGreaterThanOrEqual(5);
    const text = realPods
      .flatMap((p) => [watch('ADDED', p), watch('MODIFIED', deleting(p)), watch('DELETED', p)])
      .map((e) => JSON.stringify(e, null, 4))
      .join('\n');
    for (const chunk of [1, 7, 4096, 1 << 20]) {
      const r = expectSame(text, chunk);
      expect(r.fast.events).toHaveLength(realPods.length * 3);
      expect(r.fast.problems).toEqual([]);
      if (chunk === 1 << 20) expect(r.parsedInFull).toBe(0);
    }
    const names = both(text).fast.events.map((e) => `${e.type} ${podKeyOf(e.pod)}`);
    expect(names).toContain('ADDED kube-system/kube-dns-548976df6c-d9kkv');
  });

  it('real pods: compact lines with event times, plain pods (kubectl -w without watch events), a List', () => {
    const lines = realPods.map((p, k) =>
      JSON.stringify(watch('MODIFIED', p, { time: `2024-06-01T10:00:0${k}.25Z` })),
    );
    const plain = realPods.map((p) => JSON.stringify(p, null, 4));
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: realPods }, null, 4);
    const text = [...lines, ...plain, list, '{"kind":"PodList","items":[]}'].join('\n') + '\n';
    for (const chunk of [3, 999, 1 << 20]) expectSame(text, chunk);
    const r = both(text);
    expect(r.fast.counts).toEqual({
      values: realPods.length * 2 + 2,
      events: realPods.length * 3,
      bookmarks: 0,
      timed: realPods.length,
    });
    expect(r.parsedInFull).toBe(0);
  });

  it('fields in any order, at every level', () => {
    const rand = mulberry32(7);
    const shuffle = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(shuffle);
      if (typeof v !== 'object' || v === null) return v;
      const entries = Object.entries(v).map(([k, x]) => [k, shuffle(x)] as const);
      for (let i = entries.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [entries[i], entries[j]] = [
          entries[j] as (typeof entries)[number],
          entries[i] as (typeof entries)[number],
        ];
      }
      return Object.fromEntries(entries);
    };
    const text = realPods
      .map((p) =>
        JSON.stringify(shuffle(watch('DELETED', deleting(p), { time: '2024-06-01T10:11:00Z' }))),
      )
      .join('\n');
    const r = expectSame(text);
    expect(r.parsedInFull).toBe(0);
    expect(r.fast.events.every((e) => e.time === Date.parse('2024-06-01T10:11:00Z'))).toBe(true);
  });

  it('escaped quotes, backslashes and unicode in annotations and in the fields read', () => {
    const base = realPods[0] as Record<string, unknown>;
    const meta = base.metadata as Record<string, unknown>;
    const pod = {
      ...base,
      metadata: {
        ...meta,
        name: 'caf\u00e9-\u{1f600}-pod',
        namespace: 'a"b\\c',
        annotations: {
          note: 'say "hi" {not a brace} \\ \u00fc \u{1f680}',
          '"podIP"': '"10.0.0.1"',
        },
      },
      spec: { ...(base.spec as object), nodeName: 'n\u00f6de-\\u0031' },
    };
    const text = [
      JSON.stringify(watch('ADDED', pod)),
      // the same with every non-ASCII character escaped, as some tools write it
      JSON.stringify(watch('ADDED', pod)).replace(
        /[\u0080-\uffff]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    ].join('\n');
    const r = expectSame(text);
    expect(r.fast.events.map((e) => [e.pod.name, e.pod.namespace, e.pod.node])).toEqual([
      ['caf\u00e9-\u{1f600}-pod', 'a"b\\c', 'n\u00f6de-\\u0031'],
      ['caf\u00e9-\u{1f600}-pod', 'a"b\\c', 'n\u00f6de-\\u0031'],
    ]);
    for (const chunk of [1, 5]) expectSame(text, chunk);
  });

  it('problems keep their lines and columns: garbage, watch errors, non-pods, a truncated last object', () => {
    const pod = realPods[1];
    const text = [
      '\ufeff' + JSON.stringify(watch('ADDED', pod)),
      'error: the server doesn\'t have a resource type "podz"',
      JSON.stringify(
        watch('ERROR', { kind: 'Status', message: 'too old resource version: 1 (2)' }),
      ),
      JSON.stringify(watch('BOOKMARK', { metadata: { resourceVersion: '12' } })),
      JSON.stringify({ kind: 'Service', metadata: { namespace: 'x' } }),
      JSON.stringify(watch('ADDED', 'not an object')),
      JSON.stringify({ kind: 'List', items: [pod, 7, { metadata: {} }] }),
      '  ["an", "array"], {"type": "ADDED", "object": {"metadata": {"name": "p", }}}',
      'caf\u00e9 garbage with \u{1f600} after',
      `{"type":"ADDED","object":${JSON.stringify(pod, null, 2).slice(0, 300)}`,
    ].join('\r\n');
    const r = expectSame(text);
    for (const chunk of [1, 2, 3, 64]) expectSame(text, chunk);
    expect(r.fast.problems.map((p) => [p.line, p.reason])).toEqual([
      [2, 'not-json'],
      [9, 'not-json'],
      [3, 'watch-error'],
      [5, 'not-a-pod'],
      [6, 'not-a-pod'],
      [7, 'not-a-pod'],
      [7, 'not-a-pod'],
      [8, 'not-a-pod'],
      [8, 'invalid-json'],
      [10, 'truncated'],
    ]);
    expect(r.fast.counts.bookmarks).toBe(1);
  });

  it('what the fast path must not take: keys given twice or escaped, nulls, odd numbers and times', () => {
    const values = [
      '{"type":"ADDED","object":{"metadata":{"name":"a","name":"b"}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"},"metadata":{"uid":"u"}}}',
      '{"type":"ADDED","object":{"metadata":{"na\\u006de":"escaped-key"}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a","namespace":null,"uid":7,"creationTimestamp":null},"spec":null,"status":{"podIP":"10.1.2.3","podIPs":null}}}',
      '{"type":"DELETED","object":{"metadata":{"name":"a","deletionTimestamp":"2024-06-01T10:00:00+02:00","deletionGracePeriodSeconds":3e1},"spec":{"terminationGracePeriodSeconds":-0.5e-3,"hostNetwork":true}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a","creationTimestamp":"2024-02-30T24:00:00.123456Z"},"status":{"startTime":"2024-06-01t10:00:00z","podIPs":[{"ip":"FD00::0:1"},{"ip":"::ffff:10.0.0.9"},"x",{"ip":""}]}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"},"status":{"containerStatuses":[{"state":{"terminated":{"finishedAt":"2024-06-01T10:00:05Z"}}},{"state":{"running":{"startedAt":"2024-06-01T10:00:01Z","finishedAt":"2024-06-01T11:00:00Z"}},"lastState":{"terminated":{"startedAt":"2024-06-01T09:00:00Z","finishedAt":"2024-06-01T09:30:00Z"}}}],"conditions":[{"lastTransitionTime":"2024-06-01T10:00:02Z"},null,{"lastTransitionTime":"bad"}]}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a","ownerReferences":[{"kind":"ReplicaSet","name":"first"},{"kind":"Job","name":"ctl","controller":true},{"kind":"X","name":"y","controller":true}]}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a","ownerReferences":[1,{"kind":"","name":"n"}]}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"}},"time":"nope","observedAt":"2024-06-01T10:00:00.5Z"}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"}},"trailing":[1,2,],"x":1}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"},"n":01}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"},"n":tru}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a\u0001"}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a\u001f"}}}',
      '{"type":"MODIFIED","object":{"metadata":{"name":"a","labels":{"k":"\\x"}}}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"}},"items":[1]}',
      '{"kind":"PodList","items":"no"}',
      '{"type":7,"object":{"metadata":{"name":"a"}},"metadata":{"name":"top"}}',
      '{"type":"ADDED","object":{"metadata":{"name":"a"}},"time":"2024-06-01T10:00:00Z","time":"2024-06-01T11:00:00Z"}',
    ];
    const r = expectSame(values.join('\n'));
    expect(r.fast.events.length).toBeGreaterThan(10);
    for (const v of values) expectSame(v);
  });

  it('keys that begin like a known key, or that a known key begins, are other keys', () => {
    const pod = realPods[3] as Record<string, unknown>;
    const meta = pod.metadata as Record<string, unknown>;
    const look = {
      typeX: 'MODIFIED',
      typ: 'DELETED',
      objects: { metadata: { name: 'not-this' } },
      object: {
        ...pod,
        metadataX: { name: 'not-this-either' },
        meta: { name: 'nor-this' },
        metadata: { ...meta, nam: 'x', nameX: 'y', names: 'z', 'name ': 'w', namespaceX: 'v' },
        status: {
          ...(pod.status as object),
          podIPsX: [{ ip: '10.9.9.9' }],
          podI: '10.8.8.8',
          podIP: '10.7.7.7',
          podIPs: [{ ip: '10.7.7.7', ipX: '10.6.6.6' }],
        },
      },
      type: 'ADDED',
      timeX: '2024-06-01T09:00:00Z',
      time: '2024-06-01T10:00:00Z',
    };
    const text = [JSON.stringify(look), JSON.stringify(look, null, 2)].join('\n');
    for (const chunk of [1, 2, 9, 1 << 20]) expectSame(text, chunk);
    const r = both(text);
    expect(r.parsedInFull).toBe(0);
    expect(r.fast.events.map((e) => [e.type, e.pod.name, e.pod.ips, e.time])).toEqual([
      ['ADDED', meta.name, ['10.7.7.7'], Date.parse('2024-06-01T10:00:00Z')],
      ['ADDED', meta.name, ['10.7.7.7'], Date.parse('2024-06-01T10:00:00Z')],
    ]);
  });

  it('reads RFC 3339 times as Date.parse does, and leaves the others to it', () => {
    const times = [
      '2024-06-01T10:00:00Z',
      '2024-06-01T10:00:00.1Z',
      '2024-06-01T10:00:00.12Z',
      '2024-06-01T10:00:00.999999999Z',
      '2024-02-29T23:59:59Z',
      '2023-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-06-01T24:00:00Z',
      '2024-06-01T23:59:60Z',
      '2024-13-01T00:00:00Z',
      '2024-00-10T00:00:00Z',
      '2024-06-00T00:00:00Z',
      '0099-06-01T00:00:00Z',
      '1969-12-31T23:59:59.5Z',
      '2024-06-01T10:00:00.Z',
      '2024-06-01T10:00:00+02:00',
      '2024-06-01 10:00:00Z',
      '2024-06-01T1a:00:00Z',
      '+002024-06-01T10:00:00Z',
      'Sat, 01 Jun 2024 10:00:00 GMT',
      '',
    ];
    const text = times
      .map((t) => JSON.stringify(watch('ADDED', { metadata: { name: 'p', creationTimestamp: t } })))
      .join('\n');
    const r = expectSame(text);
    expect(r.fast.events.map((e) => e.pod.creationTimestamp)).toEqual(
      times.map((t) => (Number.isNaN(Date.parse(t)) ? null : Date.parse(t))),
    );
  });

  it('nesting deeper than allowed, and a value with a brace first on a line inside it', () => {
    const deep = `{"type":"ADDED","object":{"metadata":{"name":"deep"},"x":${'['.repeat(40)}${']'.repeat(40)}}}`;
    const cut = '{"type":"ADDED","object":{"metadata":{"name":"cut"},\n"spec":\n{"nodeName":"n"}}}';
    const text = [deep, cut, JSON.stringify(watch('ADDED', realPods[2]))].join('\n');
    const r = expectSame(text, 1 << 20, { maxDepth: 16 });
    expect(r.fast.problems.map((p) => p.reason)).toContain('too-deep');
    expectSame(text, 5, { maxDepth: 16 });
    expectSame(text);
  });

  it('random damage to a real capture: the same events and problems either way', () => {
    const clean = realPods
      .map((p, k) =>
        JSON.stringify(watch(k % 2 ? 'MODIFIED' : 'ADDED', p), null, k % 3 === 0 ? 4 : undefined),
      )
      .join('\n');
    const rand = mulberry32(20261123);
    const pieces = ['"', '\\', '{', '}', '[', ']', ',', ':', '\n', ' ', 'x', '0', '\u00e9', 'null'];
    for (let round = 0; round < 150; round++) {
      let text = clean;
      const edits = 1 + Math.floor(rand() * 4);
      for (let k = 0; k < edits; k++) {
        const at = Math.floor(rand() * text.length);
        const piece = pieces[Math.floor(rand() * pieces.length)] as string;
        text =
          rand() < 0.5
            ? text.slice(0, at) + piece + text.slice(at)
            : text.slice(0, at) + text.slice(at + 1);
      }
      const chunk = rand() < 0.5 ? 1 << 20 : 1 + Math.floor(rand() * 700);
      expectSame(text, chunk);
    }
  });
});
