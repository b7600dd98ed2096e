import { describe, it, expect } from 'vitest';
import { stringify } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { readTimelineInput } from './input';
import { analyzePod } from './analyze';
import { buildPod, event, at } from '../../tests/data/timeline/builders';
import type { Pod } from '../kube/types';

function clone(p: Pod): Pod {
  return JSON.parse(JSON.stringify(p)) as Pod;
}

/** Three states of one classic pod: created, app running (proxy not ready), all ready. */
function watchStates(): Pod[] {
  const p0 = buildPod({
    mode: 'classic',
    apps: [{ name: 'app' }],
    proxy: { startedAt: undefined },
  });
  const p1 = buildPod({
    mode: 'classic',
    apps: [{ name: 'app', startedAt: 2, ready: false }],
    proxy: { startedAt: 3, ready: false },
  });
  const p2 = buildPod({
    mode: 'classic',
    apps: [{ name: 'app', startedAt: 2, ready: true }],
    proxy: { startedAt: 3, ready: true },
    conditions: { ContainersReady: 6, Ready: 6 },
  });
  return [p0, p1, p2].map(clone);
}

describe('readTimelineInput', () => {
  it('reads a real multi-document YAML pod fixture (trailing ---)', () => {
    const r = readTimelineInput(readFixture('pods', 'injected_pod.yaml'));
    expect(r.errors).toEqual([]);
    expect(r.pods.map((p) => p.metadata.name)).toEqual(['hellopod']);
    expect(r.stats.values).toBe(1);
  });

  it('reads the kube-dns fixture as JSON too (PodList), with the same statuses', () => {
    const yamlPod = readTimelineInput(readFixture('pods', 'kube-dns_pod_with_status.yaml'))
      .pods[0] as Pod;
    const list = JSON.stringify(
      { apiVersion: 'v1', kind: 'PodList', items: [yamlPod, yamlPod] },
      null,
      2,
    );
    const r = readTimelineInput(list);
    expect(r.errors).toEqual([]);
    expect(r.pods).toHaveLength(1); // same uid twice -> one pod
    expect(r.pods[0]?.status?.containerStatuses?.length).toBe(4);
  });

  it('a List with pods and events keeps both and counts other kinds', () => {
    const pod = buildPod({ mode: 'classic' });
    const list = {
      kind: 'List',
      items: [
        pod,
        event(pod, 'Killing', 'Stopping container app', 50, { container: 'app' }),
        { kind: 'Service', metadata: { name: 's' } },
      ],
    };
    const r = readTimelineInput(stringify(list));
    expect(r.pods).toHaveLength(1);
    expect(r.events).toHaveLength(1);
    expect(r.stats.ignored).toEqual({ Service: 1 });
  });

  it('watch stream as JSON lines: transitions with condition time for the ready flip', () => {
    const states = watchStates();
    const text = states
      .map((o, i) => JSON.stringify({ type: i === 0 ? 'ADDED' : 'MODIFIED', object: o }))
      .join('\n');
    const r = readTimelineInput(text);
    expect(r.errors).toEqual([]);
    expect(r.stats.watchEvents).toBe(3);
    expect(r.pods).toHaveLength(1);
    const ready = r.transitions.filter((t) => t.field === 'ready' && t.container === 'istio-proxy');
    expect(ready).toEqual([
      {
        time: at(6),
        timeSource: 'condition',
        podUid: states[0]?.metadata.uid,
        container: 'istio-proxy',
        field: 'ready',
        value: true,
      },
    ]);
    const starts = r.transitions
      .filter((t) => t.field === 'startedAt')
      .map((t) => [t.container, t.value]);
    expect(starts).toEqual([
      ['app', at(2)],
      ['istio-proxy', at(3)],
    ]);
    const t = analyzePod(r.pods[0] as Pod, { transitions: r.transitions, events: r.events });
    expect(t.proxyReady).toMatchObject({ source: 'transition', confidence: 'high' });
    expect(t.verdicts[0]?.verdict).toBe('race');
    expect(t.gapMs).toBe(-4000);
  });

  it('watch stream pretty-printed and concatenated gives the same result', () => {
    const states = watchStates();
    const lines = states.map((o, i) => ({ type: i === 0 ? 'ADDED' : 'MODIFIED', object: o }));
    const pretty = lines.map((l) => JSON.stringify(l, null, 4)).join('\n');
    const compact = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(readTimelineInput(pretty).transitions).toEqual(readTimelineInput(compact).transitions);
  });

  it('ready flip without a coinciding condition is bounded by the previous event', () => {
    const [p0, p1, p2] = watchStates() as [Pod, Pod, Pod];
    p2.status!.conditions = [];
    const r = readTimelineInput(
      [p0, p1, p2].map((o) => JSON.stringify({ type: 'MODIFIED', object: o })).join('\n'),
    );
    const ready = r.transitions.find((t) => t.field === 'ready' && t.container === 'istio-proxy');
    expect(ready).toMatchObject({ timeSource: 'bounded', notBefore: at(3), time: at(3) });
  });

  it('errors carry line and column and reading continues', () => {
    const [p0, p1] = watchStates() as [Pod, Pod];
    const text = [
      JSON.stringify({ type: 'ADDED', object: p0 }),
      '{"type":"MODIFIED","object":{"metadata":',
      'garbage here',
      JSON.stringify({ type: 'MODIFIED', object: p1 }),
      '{"type": "MODIFIED", "object": {"metadata": {"name": "x"}, "spec": {}}}',
      '{"type": "ERROR", "object": {"kind": "Status", "message": "too old resource version"}}',
    ].join('\n');
    const r = readTimelineInput(text);
    expect(r.pods).toHaveLength(1);
    expect(r.errors.map((e) => [e.line, e.column])).toEqual([
      [2, 1],
      [5, 1],
      [6, 1],
    ]);
    expect(r.errors[0]?.message).toContain('unterminated');
    expect(r.errors[1]?.message).toContain('spec.containers');
    expect(r.errors[2]?.message).toContain('too old resource version');
  });

  it('bad JSON inside a balanced value and bad YAML report positions', () => {
    const r = readTimelineInput('{"kind": "Pod",\n "metadata": {"name": "a"} "spec": 1}\n');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.line).toBe(2);
    const y = readTimelineInput('kind: Pod\nmetadata:\n  name: a\n  bad: [1, 2\nspec: {}\n');
    expect(y.errors.length).toBeGreaterThan(0);
    expect(y.errors[0]?.line).toBeGreaterThanOrEqual(4);
    expect(readTimelineInput('   \n').errors[0]?.message).toBe('empty input');
  });
});

describe('unreadable parts', () => {
  it('counts each skipped line, value and broken document once', () => {
    const pod = '{"kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[]}}';
    expect(readTimelineInput(`${pod}\n${pod}\n`).unreadable).toBe(0);
    const r = readTimelineInput(`${pod}\ngarbage\n{"kind":"Pod","metadata":{}}\n{"type":"ADDED"`);
    expect(r.pods).toHaveLength(1);
    expect(r.unreadable).toBe(3);
    // one broken YAML document with several errors is one part
    const y = readTimelineInput(
      'kind: Pod\nmetadata: {name: a}\nspec: {containers: []}\n---\na: [\nb: ]]\n',
    );
    expect(y.errors.length).toBeGreaterThanOrEqual(1);
    expect(y.unreadable).toBe(1);
  });
});
