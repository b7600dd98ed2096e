import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { readFixture } from '../../test-support/fixtures';
import { podProxy } from '../dataplane/proxy-container';
import { jsonEqual, SharedParts } from './shared-parts';
import { trimFor, trimPod } from './trim';
import type { Pod } from './types';

/** The real injector output (native sidecar) as two pods of one ReplicaSet, freshly parsed. */
function sibling(name: string, ip: string, owner = 'rs-uid-1'): Pod {
  const pod = parseAllDocuments(readFixture('pods', 'injected_native-sidecar.yaml'))
    .map((d) => d.toJS() as Pod | null)
    .find((d) => d !== null) as Pod;
  return {
    ...pod,
    metadata: {
      ...pod.metadata,
      name,
      namespace: 'shop',
      uid: `${name}-uid`,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: 'hello-7d4',
          uid: owner,
          controller: true,
        },
      ],
    },
    status: { phase: 'Running', podIP: ip },
  };
}

describe('jsonEqual', () => {
  it('compares JSON values by value', () => {
    expect(jsonEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({ a: null }, { a: undefined })).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
  });
});

describe('SharedParts', () => {
  it('keeps one frozen copy per key while the values are equal, and a new one when they differ', () => {
    const parts = new SharedParts();
    const first = parts.share('k', { env: [{ name: 'A', value: '1' }] });
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.env[0])).toBe(true);
    expect(parts.share('k', { env: [{ name: 'A', value: '1' }] })).toBe(first);
    const changed = parts.share('k', { env: [{ name: 'A', value: '2' }] });
    expect(changed).not.toBe(first);
    expect(parts.share('k', { env: [{ name: 'A', value: '2' }] })).toBe(changed);
    expect(parts.shared).toBe(2);
  });

  it('shares a flat record whole when equal, else keeps the one that differs (value for value)', () => {
    const parts = new SharedParts();
    const a = parts.shareValues('ann', { 'istio.io/rev': 'default', 'cni/podIP': '10.0.0.1' });
    expect(Object.isFrozen(a)).toBe(true);
    expect(parts.shareValues('ann', { 'istio.io/rev': 'default', 'cni/podIP': '10.0.0.1' })).toBe(
      a,
    );
    const b = parts.shareValues('ann', { 'istio.io/rev': 'default', 'cni/podIP': '10.0.0.2' });
    expect(b).not.toBe(a);
    expect(b).toEqual({ 'istio.io/rev': 'default', 'cni/podIP': '10.0.0.2' });
    expect(Object.isFrozen(b)).toBe(true);
    // the newest is the one kept; a value that is not a record is left as it is
    expect(parts.shareValues('ann', { 'istio.io/rev': 'default', 'cni/podIP': '10.0.0.2' })).toBe(
      b,
    );
    expect(parts.shareValues('ann', ['x'])).toEqual(['x']);
    expect(parts.shareValues('ann', null)).toBe(null);
  });

  it('forgets the oldest parts beyond its bound', () => {
    const parts = new SharedParts(2);
    const a = parts.share('a', { x: 1 });
    parts.share('b', { x: 2 });
    parts.share('c', { x: 3 });
    expect(parts.size).toBe(2);
    expect(parts.share('a', { x: 1 })).not.toBe(a);
  });
});

describe('trimPod with shared parts, on real injector output', () => {
  it("shares a ReplicaSet's containers, labels and annotations between its pods", () => {
    const trim = trimFor('pods');
    const a = trim(sibling('hello-a', '10.0.0.1'));
    const b = trim(sibling('hello-b', '10.0.0.2'));
    expect(b.spec.initContainers?.length).toBeGreaterThan(0);
    for (let i = 0; i < a.spec.containers.length; i++)
      expect(b.spec.containers[i]).toBe(a.spec.containers[i]);
    expect(b.spec.initContainers?.[0]).toBe(a.spec.initContainers?.[0]);
    expect(b.metadata.labels).toBe(a.metadata.labels);
    expect(b.metadata.annotations).toBe(a.metadata.annotations);
    // what is the pod's own stays its own
    expect(b.metadata.name).toBe('hello-b');
    expect(b.status?.podIP).toBe('10.0.0.2');
    // and the analyses read the same as without sharing
    expect(podProxy(b)).toEqual(podProxy(trimPod(sibling('hello-b', '10.0.0.2'))));
    expect(b).toEqual(trimPod(sibling('hello-b', '10.0.0.2')));
  });

  it("keeps each pod's own annotation and status while sharing what its siblings have too", () => {
    const trim = trimFor('pods');
    const withOwn = (name: string, ip: string, started: string) => {
      const p = sibling(name, ip);
      p.metadata.annotations = { ...p.metadata.annotations, 'cni.example/pod-ip': ip };
      p.status = {
        phase: 'Running',
        podIP: ip,
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: started },
          { type: 'Ready', status: 'True', lastTransitionTime: started },
        ],
        containerStatuses: [
          {
            name: 'hello',
            image: 'registry.example/hello:v1',
            imageID: 'registry.example/hello@sha256:0f0f',
            containerID: `containerd://${name}`,
            ready: true,
            restartCount: 0,
            state: { running: { startedAt: started } },
          },
        ],
      };
      return p;
    };
    const a = trim(withOwn('hello-a', '10.0.0.1', '2026-11-01T12:00:00Z'));
    const b = trim(withOwn('hello-b', '10.0.0.2', '2026-11-01T12:00:05Z'));
    const c = trim(withOwn('hello-c', '10.0.0.3', '2026-11-01T12:00:05Z'));
    expect(b.metadata.annotations?.['cni.example/pod-ip']).toBe('10.0.0.2');
    expect(b.metadata.annotations?.['sidecar.istio.io/status']).toBe(
      a.metadata.annotations?.['sidecar.istio.io/status'],
    );
    // the runtime's container ID is not kept; the start time is each pod's own
    expect(b.status?.containerStatuses?.[0]?.containerID).toBeUndefined();
    expect(a.status?.containerStatuses?.[0]?.state).toEqual({
      running: { startedAt: '2026-11-01T12:00:00Z' },
    });
    expect(b.status?.containerStatuses?.[0]?.state).toEqual({
      running: { startedAt: '2026-11-01T12:00:05Z' },
    });
    // a status equal to the sibling's (the same start) is that one object
    expect(c.status?.containerStatuses?.[0]).toBe(b.status?.containerStatuses?.[0]);
    expect(b.status?.conditions?.[1]).toEqual({
      type: 'Ready',
      status: 'True',
      lastTransitionTime: '2026-11-01T12:00:05Z',
    });
    // a condition equal to the sibling's before it is that one object, read-only
    expect(c.status?.conditions?.[1]).toBe(b.status?.conditions?.[1]);
    expect(Object.isFrozen(c.status?.conditions?.[1])).toBe(true);
    // and the pods read the same as trimmed without sharing
    expect(b).toEqual(trimPod(withOwn('hello-b', '10.0.0.2', '2026-11-01T12:00:05Z')));
  });

  it('keeps a pod whose template differs, and shares nothing across controllers or bare pods', () => {
    const trim = trimFor('pods');
    const a = trim(sibling('hello-a', '10.0.0.1'));
    const changed = sibling('hello-c', '10.0.0.3');
    const proxy = changed.spec.initContainers?.find((c) => c.name === 'istio-proxy');
    proxy?.env?.push({ name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS', value: 'true' });
    const c = trim(changed);
    const i = c.spec.initContainers?.findIndex((x) => x.name === 'istio-proxy') ?? -1;
    expect(c.spec.initContainers?.[i]).not.toBe(a.spec.initContainers?.[i]);
    expect(c.spec.initContainers?.[i]?.env).toContainEqual({
      name: 'EXIT_ON_ZERO_ACTIVE_CONNECTIONS',
      value: 'true',
    });
    const other = trim(sibling('other-a', '10.0.1.1', 'rs-uid-2'));
    expect(other.spec.containers[0]).not.toBe(a.spec.containers[0]);
    const bare = sibling('bare', '10.0.2.1');
    bare.metadata.ownerReferences = undefined;
    expect(trim(bare).spec.containers[0]).not.toBe(a.spec.containers[0]);
  });

  it('makes a shared part read-only: changing it throws instead of changing its siblings', () => {
    const trim = trimFor('pods');
    trim(sibling('hello-a', '10.0.0.1'));
    const b = trim(sibling('hello-b', '10.0.0.2'));
    expect(() => {
      'use strict';
      (b.metadata.labels as Record<string, string>).x = 'y';
    }).toThrow(TypeError);
  });
});
