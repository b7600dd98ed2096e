import { describe, expect, it } from 'vitest';
import { nodeVersions } from '../dataplane/native-sidecar';
import type { Node, Pod } from '../kube/types';
import { injectionInfo, workloadModes, type InjectionInput } from './next-mode';
import { buildPod } from '../../tests/data/timeline/builders';

const node = (name: string, v: string): Node => ({
  metadata: { name },
  status: { nodeInfo: { kubeletVersion: v } },
});
const input = (versions: string[], value: 'auto' | 'true' | 'false' = 'auto'): InjectionInput => ({
  setting: { value, source: 'test', notes: [] },
  nodes: nodeVersions(versions.map((v, i) => node(`n${i}`, v))),
  nodesError: null,
});
const owned = (
  name: string,
  mode: 'native' | 'classic',
  annotations?: Record<string, string>,
): Pod =>
  buildPod({
    name: `${name}-5d9f8b6c5d-${mode.slice(0, 5)}`,
    mode,
    owner: { replicaSet: `${name}-5d9f8b6c5d`, hash: '5d9f8b6c5d' },
    ...(annotations ? { annotations } : {}),
  });

describe('mode now and at the next restart', () => {
  it('flags classic pods that turn native once every node runs 1.33', () => {
    const rows = workloadModes([owned('api', 'classic')], input(['v1.33.1', 'v1.34.0']));
    expect(rows).toMatchObject([
      {
        name: 'api',
        kind: 'Deployment',
        now: 'classic',
        next: 'native',
        flips: true,
        code: 'MDX0113',
      },
    ]);
    expect(rows[0]?.fixes[0]?.yaml).toContain('sidecar.istio.io/nativeSidecar: "false"');
  });

  it('flags native pods that one older node turns classic again', () => {
    const rows = workloadModes([owned('api', 'native')], input(['v1.33.1', 'v1.32.5']));
    expect(rows[0]).toMatchObject({ now: 'native', next: 'classic', flips: true });
    expect(rows[0]?.why).toContain('n1 (v1.32.5)');
  });

  it('keeps a workload whose template pins its mode', () => {
    const pinned = owned('db', 'classic', { 'sidecar.istio.io/nativeSidecar': 'false' });
    const rows = workloadModes([pinned], input(['v1.34.0']));
    expect(rows[0]).toMatchObject({
      now: 'classic',
      next: 'classic',
      flips: false,
      pinned: 'false',
      code: null,
    });
  });

  it('does not claim a flip in auto mode when the nodes are unknown', () => {
    const rows = workloadModes([owned('api', 'native')], {
      ...input([]),
      nodesError: 'nodes not listed: 403',
    });
    expect(rows[0]?.flips).toBe(false);
    expect(rows[0]?.why).toContain('403');
  });

  it('summarises the injector for new pods', () => {
    expect(injectionInfo(input(['v1.33.0'])).nextNative).toBe(true);
    expect(injectionInfo(input(['v1.33.0'], 'false')).nextNative).toBe(false);
  });
});
