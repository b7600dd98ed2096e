import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { listFixtures, readFixture } from '../../test-support/fixtures';
import { objectProblems } from '../findings/object-shape';
import { probeFindings } from '../protocol/probes';
import { detectMode } from '../timeline/mode';
import { hasProxy, podProxy } from '../dataplane/proxy-container';
import { podDataplane } from '../dataplane/mode';
import { trimFor, trimObject, trimPod } from './trim';
import type { Pod } from './types';

/** The real pods of the fixtures, each also as a live API server sends it (managedFields...). */
function fixturePods(): { file: string; pod: Pod }[] {
  return listFixtures('pods').flatMap((file) =>
    parseAllDocuments(readFixture('pods', file))
      .map((d) => d.toJS() as Pod)
      .filter((p) => p?.kind === 'Pod')
      .map((pod) => withLiveFields(file, pod)),
  );
}

function withLiveFields(file: string, pod: Pod): { file: string; pod: Pod } {
  {
    const meta = pod.metadata as Pod['metadata'] & Record<string, unknown>;
    meta.managedFields = [
      {
        manager: 'kubelet',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': {} },
      },
    ];
    meta.annotations = {
      ...meta.annotations,
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(pod).repeat(2),
    };
    return { file, pod };
  }
}

/** An analysis result with the container it points at named, not copied (that one is trimmed). */
function named<T>(r: T): unknown {
  return JSON.parse(
    JSON.stringify(r, (k, v: unknown) =>
      k === 'container' && v !== null && typeof v === 'object' ? (v as { name: string }).name : v,
    ),
  );
}

const size = (o: unknown) => JSON.stringify(o).length;

describe('trimPod on real pods', () => {
  const pods = fixturePods();

  it('drops what no view reads and at least a third of the bytes', () => {
    expect(pods.length).toBeGreaterThanOrEqual(5);
    for (const { file, pod } of pods) {
      const t = trimPod(pod);
      const json = JSON.stringify(t);
      expect(json, file).not.toContain('managedFields');
      expect(json, file).not.toContain('last-applied-configuration');
      expect(json, file).not.toContain('"resources"');
      expect(json, file).not.toContain('securityContext');
      expect(json, file).not.toContain('"volumes"');
      expect(size(t), file).toBeLessThan(size(pod) * 0.67);
    }
  });

  it('keeps every input of the analyses: mode, proxy, dataplane, probes, shape', () => {
    for (const { file, pod } of pods) {
      const t = trimPod(pod);
      expect(named(detectMode(t)), file).toEqual(named(detectMode(pod)));
      expect(named(podProxy(t)), file).toEqual(named(podProxy(pod)));
      expect(hasProxy(t), file).toBe(hasProxy(pod));
      expect(podDataplane(t, undefined), file).toEqual(podDataplane(pod, undefined));
      expect(probeFindings([t]), file).toEqual(probeFindings([pod]));
      expect(objectProblems({ ...t, kind: 'Pod' }), file).toEqual(
        objectProblems({ ...pod, kind: 'Pod' }),
      );
      // the typed fields are all there, value for value
      for (const k of ['phase', 'podIP', 'podIPs', 'hostIP', 'startTime', 'conditions'] as const)
        expect(t.status?.[k], `${file} status.${k}`).toEqual(pod.status?.[k]);
      expect(
        t.status?.containerStatuses?.map((c) => [c.name, c.ready, c.restartCount, c.state]),
        file,
      ).toEqual(
        pod.status?.containerStatuses?.map((c) => [c.name, c.ready, c.restartCount, c.state]),
      );
      expect(
        t.spec.containers.map((c) => c.env),
        file,
      ).toEqual(pod.spec.containers.map((c) => c.env));
      expect(t.metadata.labels, file).toEqual(pod.metadata.labels);
      expect(t.metadata.ownerReferences, file).toEqual(pod.metadata.ownerReferences);
      // the runtime's per-container ID is not kept (no view reads it); the image's is
      for (const [i, c] of (t.status?.containerStatuses ?? []).entries()) {
        expect(c.containerID, file).toBeUndefined();
        expect(c.imageID, file).toBe(pod.status?.containerStatuses?.[i]?.imageID);
      }
    }
  });

  it('leaves a malformed pod malformed, so the shape check still names it', () => {
    const noSpec = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'a' } };
    expect(trimPod(noSpec as unknown as Pod)).toEqual(noSpec);
    const badContainers = {
      ...noSpec,
      spec: { containers: 'not-a-list', volumes: [{ name: 'v' }] },
    } as unknown as Pod;
    const t = trimPod(badContainers);
    expect(t.spec.containers).toBe('not-a-list');
    expect(objectProblems({ ...t, kind: 'Pod' }).length).toBeGreaterThan(0);
    expect(trimPod(null as unknown as Pod)).toBeNull();
  });
});

describe('trimObject', () => {
  it('drops managedFields and the last-applied annotation, nothing else', () => {
    const ev = {
      metadata: {
        name: 'e',
        namespace: 'a',
        managedFields: [{ manager: 'kubelet' }],
        annotations: { keep: 'me', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      },
      reason: 'Started',
      involvedObject: { kind: 'Pod', name: 'p' },
    };
    expect(trimObject(ev)).toEqual({
      metadata: { name: 'e', namespace: 'a', annotations: { keep: 'me' } },
      reason: 'Started',
      involvedObject: { kind: 'Pod', name: 'p' },
    });
    const pod = fixturePods()[0]!.pod;
    expect(trimFor('pods')(pod)).toEqual(trimPod(pod));
    expect(trimFor('events')).toBe(trimObject);
  });
});
