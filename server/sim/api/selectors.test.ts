import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../lib/kube/types';
import { readFixture } from '../../../test-support/fixtures';
import { fieldValue, matchesFields, parseFieldSelector } from './fields';
import { matchesLabels, parseLabelSelector } from './labels';

const pod = parseAllDocuments(readFixture('pods/kube-dns_pod_with_status.yaml'))[0]?.toJS() as Pod;
const labels = pod.metadata.labels ?? {};

function sel(s: string) {
  const r = parseLabelSelector(s);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('label selectors', () => {
  it('parses every operator', () => {
    expect(sel('a=b,c==d,e!=f,g in (x, y),h notin (z),i,!j')).toEqual([
      { key: 'a', op: 'eq', value: 'b' },
      { key: 'c', op: 'eq', value: 'd' },
      { key: 'e', op: 'neq', value: 'f' },
      { key: 'g', op: 'in', values: ['x', 'y'] },
      { key: 'h', op: 'notin', values: ['z'] },
      { key: 'i', op: 'exists' },
      { key: 'j', op: 'notexists' },
    ]);
    expect(sel('')).toEqual([]);
    expect(sel('app.kubernetes.io/name=x')[0]).toEqual({
      key: 'app.kubernetes.io/name',
      op: 'eq',
      value: 'x',
    });
  });

  it('rejects malformed selectors', () => {
    for (const bad of ['a in (b', 'a=b c', '=x', 'a in b', '!', 'a=(b)']) {
      expect(parseLabelSelector(bad).ok, bad).toBe(false);
    }
  });

  it('matches the labels of a real pod', () => {
    const [k, v] = Object.entries(labels)[0] ?? ['', ''];
    expect(matchesLabels(sel(`${k}=${v}`), labels)).toBe(true);
    expect(matchesLabels(sel(`${k}!=${v}`), labels)).toBe(false);
    expect(matchesLabels(sel(`${k} notin (${v})`), labels)).toBe(false);
    expect(matchesLabels(sel(`${k},!not-there`), labels)).toBe(true);
    expect(matchesLabels(sel('not-there notin (x)'), labels)).toBe(true);
    expect(matchesLabels(sel('not-there in (x)'), labels)).toBe(false);
  });
});

describe('field selectors', () => {
  it('reads the fields of a real pod', () => {
    expect(fieldValue(pod, 'status.phase')).toBe('Running');
    expect(fieldValue(pod, 'spec.nodeName')).toBe('gke-istio-test-default-pool-866a0405-ftch');
    expect(fieldValue(pod, 'metadata.namespace')).toBe('kube-system');
    expect(fieldValue(pod, 'status.nominatedNodeName')).toBe('');
  });

  it('parses, refuses unsupported fields, and matches', () => {
    const r = parseFieldSelector('pods', 'status.phase=Running,spec.nodeName!=other');
    if (!r.ok) throw new Error(r.error);
    expect(matchesFields(r.value, pod)).toBe(true);
    const miss = parseFieldSelector('pods', 'status.phase==Pending');
    expect(miss.ok && matchesFields(miss.value, pod)).toBe(false);
    expect(parseFieldSelector('pods', 'spec.containers=x')).toEqual({
      ok: false,
      error: 'field label not supported: spec.containers',
    });
    expect(parseFieldSelector('sidecars', 'status.phase=Running').ok).toBe(false);
    expect(parseFieldSelector('events', 'involvedObject.name=x,type=Warning').ok).toBe(true);
  });
});
